/** Python: `.py` and `.pyi` files, read by tree-sitter-python, resolved by Python's own import rules. */
import type { FileType } from '../../types.js';
import type { LanguageModule } from '../types.js';
import { parsePython } from './parse.js';
import { PYTHON_CONFIG_FILES } from './project.js';
import { PythonResolver } from './resolve.js';

/** pytest's default discovery (`test_*.py`, `*_test.py`), `conftest.py`, and files under a `tests` folder. */
const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.pyi?$|(^|\/)tests?\/[^/]*\.pyi?$/;

export const python: LanguageModule = {
  id: 'python',
  name: 'Python',
  extensions: ['.py', '.pyi'],
  grammar: 'tree-sitter-python.wasm',
  parse: parsePython,
  configFiles: PYTHON_CONFIG_FILES,
  createResolver: (host) => new PythonResolver(host),
  resolvesFromFacts: true,
  fileType(path): FileType | null {
    if (path.endsWith('.pyi')) return 'types';
    if (TEST_FILE.test(path)) return 'test';
    if (/(^|\/)(setup|noxfile|fabfile)\.py$/.test(path)) return 'config';
    return null;
  },
  exclude: ['**/__pycache__/**', '**/.venv/**', '**/venv/**', '**/.tox/**', '**/.nox/**', '**/site-packages/**', '**/.mypy_cache/**', '**/.pytest_cache/**', '**/*.egg-info/**', '**/.eggs/**'],
  namingConvention: 'snake_case',
  // a `build` package (it has `__init__.py`) is imported like any other; setuptools' `build/lib/…` copies are not
  sourceInOutputFolder: (folder, has) => has(`${folder}/__init__.py`),
  moduleSystem: 'packages and modules (import)',
};
