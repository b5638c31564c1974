/**
 * The /gsd: commands, the gsd-* agents, the templates and docs/workflow.md: valid frontmatter and legal names, every
 * `mcp__gsd__<tool> {args}` mention checked against the BUILT server's tools/list, and every shipped path they name
 * present in the repository and in package.json `files`.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildIntel, entityId, intelPaths, readIntelConfig } from '../../engine/src/index.js';
import { RUNTIME_FOLDER } from '../../installer/src/install/target.js';
import { startServer, type Session } from '../helpers/mcp.js';
import { repoRoot } from '../helpers/paths.js';
import { tempProject, cleanupProjects } from '../helpers/project.js';
import { listAssets, readAsset, shippedPathMentions, toolMentions, type Asset } from '../helpers/workflow.js';

const COMMANDS = ['analyze-codebase', 'dashboard', 'discuss-phase', 'execute-phase', 'help', 'map', 'new-project', 'pause-work', 'plan-phase', 'progress', 'query-intel', 'resume-work', 'verify-work'];
/** commands that change the plan or start agents: only the user starts them */
const USER_ONLY = ['analyze-codebase', 'discuss-phase', 'execute-phase', 'new-project', 'pause-work', 'plan-phase', 'resume-work', 'verify-work'];
const AGENTS = ['gsd-codebase-mapper', 'gsd-executor', 'gsd-plan-checker', 'gsd-planner', 'gsd-verifier'];
const TEMPLATES = ['CONTEXT.md', 'PLAN.md', 'PROJECT.md', 'REQUIREMENTS.md', 'ROADMAP.md', 'STATE.md', 'SUMMARY.md', 'VERIFICATION.md', 'config.json', 'entity.md'];

const COMMAND_KEYS = new Set(['description', 'argument-hint', 'allowed-tools', 'disable-model-invocation', 'model', 'when_to_use']);
const AGENT_KEYS = new Set(['name', 'description', 'tools', 'model', 'color']);
const COLORS = new Set(['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan']);

const commands = () => listAssets('commands/gsd');
const agents = () => listAssets('agents');
const docs = () => [readAsset('docs/workflow.md')];

/**
 * Real YAML is stricter than the server's tolerant reader: every frontmatter line must be a plain `key: value` whose
 * unquoted value could not be read as another YAML type or a nested map.
 */
function strictFrontmatter(a: Asset): void {
  assert.ok(a.rawFrontmatter !== null, `${a.file}: no frontmatter`);
  const keys: string[] = [];
  for (const line of a.rawFrontmatter!.split('\n')) {
    const m = /^([a-z][a-z_-]*): (.*)$/.exec(line);
    assert.ok(m, `${a.file}: frontmatter line is not "key: value": ${JSON.stringify(line)}`);
    const [, key, value] = m;
    keys.push(key);
    if (/^["']/.test(value)) {
      assert.match(value, /^"(?:[^"\\]|\\.)*"$|^'[^']*'$/, `${a.file}: ${key} badly quoted`);
    } else {
      assert.doesNotMatch(value, /: |\s#|^[[\]{}&*!|>%@`,-]/, `${a.file}: ${key} must be quoted: ${value}`);
    }
  }
  assert.equal(new Set(keys).size, keys.length, `${a.file}: duplicate frontmatter key`);
}

function toolList(value: unknown): string[] {
  return String(value ?? '')
    .split(/,\s*|\s+(?![^(]*\))/)
    .map((t) => t.trim())
    .filter(Boolean);
}

describe('workflow assets: commands', () => {
  it('are exactly the /gsd: commands of the workflow, each with valid frontmatter', () => {
    assert.deepEqual(commands().map((c) => c.name), COMMANDS);
    for (const c of commands()) {
      strictFrontmatter(c);
      for (const key of Object.keys(c.frontmatter)) assert.ok(COMMAND_KEYS.has(key), `${c.file}: unexpected key ${key}`);
      assert.equal(typeof c.frontmatter.description, 'string', `${c.file}: description`);
      const d = c.frontmatter.description as string;
      assert.ok(d.length >= 20 && d.length <= 300, `${c.file}: description of ${d.length} chars`);
      assert.equal(typeof c.frontmatter['argument-hint'], 'string', `${c.file}: argument-hint`);
      assert.ok(toolList(c.frontmatter['allowed-tools']).length, `${c.file}: allowed-tools`);
      assert.match(c.body, /^# \/gsd:/m, `${c.file}: title names the command`);
      assert.ok(c.body.includes(`/gsd:${c.name}`), `${c.file}: body names /gsd:${c.name}`);
    }
  });

  it('set disable-model-invocation on the commands only a user may start', () => {
    for (const c of commands()) {
      const v = c.frontmatter['disable-model-invocation'];
      if (USER_ONLY.includes(c.name)) assert.equal(v, true, `${c.file} must carry disable-model-invocation: true`);
      else assert.ok(v === undefined || v === false, `${c.file}: the model may run it`);
    }
  });

  it('use $ARGUMENTS or 0-based $0/$1 when they take arguments, never 1-based positions beyond them', () => {
    for (const c of commands()) {
      const hint = c.frontmatter['argument-hint'] as string;
      const uses = /\$ARGUMENTS|\$[01]\b/.test(c.body);
      if (hint.trim()) assert.ok(uses, `${c.file}: takes "${hint}" but never reads it`);
      else assert.ok(!uses, `${c.file}: reads arguments but has no argument-hint`);
      assert.doesNotMatch(c.body, /\$[2-9]\b/, `${c.file}: only $0 and $1 are used`);
      // $0 is substituted everywhere in the body, so it must not be used as a literal column header
      assert.doesNotMatch(c.body, /\|\s*\$\d\s*\|/, `${c.file}: $N in a table header`);
    }
  });

  it('pre-approve the MCP tools and the CLI fallback they use', () => {
    const started = new Set<string>();
    for (const c of commands()) {
      const allowed = toolList(c.frontmatter['allowed-tools']);
      const bashAll = allowed.includes('Bash');
      // a call is a mention with its arguments in braces; /gsd:help only lists the tools
      if (toolMentions(c.file, c.body).some((m) => m.args !== null)) {
        assert.ok(allowed.includes('mcp__gsd__*'), `${c.file}: calls MCP tools, allowed-tools lacks mcp__gsd__*`);
        // installed as the plugin `gsdcc`, the same tools are mcp__plugin_gsdcc_gsd__<tool>
        assert.ok(allowed.includes('mcp__plugin_gsdcc_gsd__*'), `${c.file}: allowed-tools lacks the plugin's mcp__plugin_gsdcc_gsd__*`);
      }
      if (/get-shit-done-cc intel /.test(c.body) && /through Bash|fallback|[Rr]un `get-shit-done-cc/.test(c.body)) {
        assert.ok(bashAll || allowed.includes('Bash(get-shit-done-cc intel:*)'), `${c.file}: runs the CLI, allowed-tools lacks Bash(get-shit-done-cc intel:*)`);
      }
      for (const m of c.body.matchAll(/`(git \w+)/g)) assert.ok(bashAll || allowed.some((t) => t.startsWith(`Bash(${m[1]}`)), `${c.file}: runs ${m[1]} without Bash permission`);
      for (const a of AGENTS) {
        if (!new RegExp(`[Ss]tart (?:the |one )?\`${a}\``).test(c.body)) continue;
        started.add(a);
        assert.ok(allowed.includes('Task'), `${c.file}: starts ${a} without Task`);
      }
    }
    assert.deepEqual([...started].sort(), AGENTS, 'every agent is started by some command');
  });

  it('analyze-codebase enriches purposes through the entity pages, hotspots first, in batches, never from a hook', () => {
    const c = readAsset('commands/gsd/analyze-codebase.md');
    assert.match(c.body, /intel build --no-cache/);
    assert.match(c.body, /mcp__gsd__hotspots/);
    assert.match(c.body, /batch/i);
    assert.match(c.body, /gsd-codebase-mapper/);
    assert.match(c.body, /\.planning\/intel\/entities\/<id>\.md/);
    assert.match(c.body, /never do this from a hook/i);
    const n = readAsset('commands/gsd/new-project.md');
    const order = ['templates/PROJECT.md', 'templates/REQUIREMENTS.md', 'templates/ROADMAP.md', 'templates/STATE.md', 'intel build'].map((s) => n.body.indexOf(s));
    assert.ok(order.every((i) => i > 0), 'new-project names the four templates and the build');
    assert.ok(n.body.indexOf('Ask') < n.body.indexOf('Write the documents') && n.body.indexOf('Write the documents') < n.body.indexOf('Build the codebase'), 'questions, documents, build');
  });
});

describe('workflow assets: agents', () => {
  it('are the five gsd agents with legal names and a tools list that keeps the MCP tools visible', () => {
    assert.deepEqual(agents().map((a) => a.name), AGENTS);
    for (const a of agents()) {
      strictFrontmatter(a);
      for (const key of Object.keys(a.frontmatter)) assert.ok(AGENT_KEYS.has(key), `${a.file}: unexpected key ${key}`);
      const name = a.frontmatter.name;
      assert.equal(name, a.name, `${a.file}: name matches the file`);
      assert.match(String(name), /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/, `${a.file}: name is lowercase-hyphen`);
      assert.ok(typeof a.frontmatter.description === 'string' && (a.frontmatter.description as string).length >= 40, `${a.file}: description`);
      if (a.frontmatter.tools !== undefined) {
        assert.ok(toolList(a.frontmatter.tools).includes('mcp__gsd__*'), `${a.file}: tools hides the MCP tools`);
        assert.ok(toolList(a.frontmatter.tools).includes('mcp__plugin_gsdcc_gsd__*'), `${a.file}: tools hides the plugin's MCP tools`);
      }
      if (a.frontmatter.color !== undefined) assert.ok(COLORS.has(String(a.frontmatter.color)), `${a.file}: color`);
    }
  });

  it('each has a role, inputs, process, output, success criteria and a fallback without MCP', () => {
    for (const a of agents()) {
      for (const h of ['Role', 'Inputs', 'Process', 'Without the MCP tools', 'Output', 'Success criteria']) {
        assert.match(a.body, new RegExp(`^# ${h}$`, 'm'), `${a.file}: section ${h}`);
      }
      const fallback = a.body.split(/^# Without the MCP tools$/m)[1].split(/^# /m)[0];
      assert.match(fallback, /get-shit-done-cc intel query [a-z-]+ .*--json/, `${a.file}: CLI fallback with --json`);
    }
  });

  it('use the MCP tools the workflow relies on, in the right places', () => {
    const planner = readAsset('agents/gsd-planner.md').body;
    const firstWrite = planner.indexOf('Write each plan');
    for (const t of ['phase_relevant_files', 'codebase_patterns', 'similar_past_work', 'guidance_load']) {
      const i = planner.indexOf(`mcp__gsd__${t}`);
      assert.ok(i > 0 && i < firstWrite, `planner asks ${t} before it writes a plan`);
    }
    const executor = readAsset('agents/gsd-executor.md').body;
    assert.match(executor, /hotspot[\s\S]{0,200}mcp__gsd__blast_radius/i);
    assert.match(executor, /SUMMARY\.md[\s\S]*key-files/);
    assert.match(executor, /mcp__gsd__guidance_load \{query, focus_level: "implementation"\}/);
    const verifier = readAsset('agents/gsd-verifier.md').body;
    for (const t of ['verify_artifact', 'verify_behavior', 'requirement_status']) assert.ok(verifier.includes(`mcp__gsd__${t}`), `verifier uses ${t}`);
    assert.match(verifier, /partial.*no_evidence.*only then/s);
    const mapper = readAsset('agents/gsd-codebase-mapper.md').body;
    assert.match(mapper, /## Purpose/);
    assert.match(mapper, /Never edit `index\.json`, `graph\.db`/);
  });
});

describe('workflow assets: MCP tool mentions against the built server', () => {
  let s: Session;
  let cwd: string;
  before(async () => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'gsd-workflow-tools-'));
    s = await startServer(cwd);
  });
  after(async () => {
    await s?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('every mcp__gsd__<tool> exists in tools/list and every {argument} in its input schema', () => {
    const byName = new Map(s.tools.map((t) => [t.name, t]));
    const assets = [...commands(), ...agents(), ...docs()];
    const mentions = assets.flatMap((a) => toolMentions(a.file, a.text));
    assert.ok(mentions.length > 40, `only ${mentions.length} mentions`);
    assert.ok(mentions.filter((m) => m.args !== null).length > 30, 'the {args} convention is used');
    for (const m of mentions) {
      const tool = byName.get(m.tool);
      assert.ok(tool, `${m.file}: mcp__gsd__${m.tool} is not a tool of the server (${[...byName.keys()].join(', ')})`);
      if (m.args === null) continue;
      const props = Object.keys((tool!.inputSchema.properties ?? {}) as object);
      for (const a of m.args) assert.ok(props.includes(a), `${m.file}: mcp__gsd__${m.tool} has no argument "${a}" (${props.join(', ')})`);
      for (const r of tool!.inputSchema.required ?? []) assert.ok(m.args.includes(r), `${m.file}: mcp__gsd__${m.tool} {${m.args.join(', ')}} leaves out required "${r}"`);
    }
    // every tool of the server is put to work somewhere in the workflow
    const used = new Set(mentions.map((m) => m.tool));
    for (const t of byName.keys()) assert.ok(used.has(t), `no command or agent uses ${t}`);
  });

  it('allowed-tools and tools entries naming one MCP tool name a real one', () => {
    const names = new Set(s.tools.map((t) => t.name));
    for (const a of [...commands(), ...agents()]) {
      for (const t of toolList(a.frontmatter['allowed-tools'] ?? a.frontmatter.tools)) {
        if (t.startsWith('mcp__gsd__') && t !== 'mcp__gsd__*') assert.ok(names.has(t.slice('mcp__gsd__'.length)), `${a.file}: ${t}`);
      }
    }
  });
});

describe('workflow assets: templates, docs and the package', () => {
  after(cleanupProjects);
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };

  it('ships commands, agents, templates and docs', () => {
    for (const dir of ['commands', 'agents', 'templates', 'docs']) assert.ok(pkg.files.includes(dir), `package.json files lacks ${dir}`);
    for (const t of TEMPLATES) assert.ok(existsSync(path.join(repoRoot, 'templates', t)), `templates/${t}`);
  });

  it('every template, doc, agent or command path named in commands, agents and docs exists and ships', () => {
    let count = 0;
    for (const a of [...commands(), ...agents(), ...docs()]) {
      for (const p of shippedPathMentions(a.text)) {
        count++;
        assert.ok(existsSync(path.join(repoRoot, p)), `${a.file} names ${p}, which does not exist`);
        assert.ok(pkg.files.some((f) => p === f || p.startsWith(`${f}/`)), `${a.file} names ${p}, which is not in package.json files`);
      }
      for (const m of a.text.matchAll(/`(gsd-[a-z-]+)`/g)) assert.ok(AGENTS.includes(m[1]), `${a.file} names an unknown agent ${m[1]}`);
      for (const m of a.text.matchAll(/\/gsd:([a-z-]+)/g)) assert.ok(COMMANDS.includes(m[1]), `${a.file} names an unknown command /gsd:${m[1]}`);
    }
    assert.ok(count >= 10, `only ${count} path mentions`);
  });

  it('the installed template folder they name is where the installer copies templates/', () => {
    let count = 0;
    for (const a of [...commands(), ...agents(), ...docs()]) {
      for (const m of a.text.matchAll(/\.claude\/([\w.-]+)\/templates\//g)) {
        count++;
        assert.equal(m[1], RUNTIME_FOLDER, `${a.file}: templates are installed under ${RUNTIME_FOLDER}/`);
      }
    }
    assert.ok(count >= 5);
  });

  it('config.json is read by the engine and carries the mcp section the server reads', () => {
    const text = readFileSync(path.join(repoRoot, 'templates', 'config.json'), 'utf8');
    const json = JSON.parse(text) as { intel: Record<string, unknown>; mcp: { disabledTools: unknown; rateLimitPerMinute: unknown } };
    assert.deepEqual(Object.keys(json.intel).sort(), ['capture', 'exclude', 'include', 'maxFileBytes']);
    const root = tempProject({ '.planning/config.json': text });
    const cfg = readIntelConfig(root);
    assert.deepEqual(cfg, { include: json.intel.include, exclude: [], maxFileBytes: 1048576, capture: true, entityPages: true, workerIdleSeconds: 120 });
    assert.ok(Array.isArray(json.mcp.disabledTools));
    assert.equal(typeof json.mcp.rateLimitPerMinute, 'object');
  });

  it('entity.md has the shape of the pages the engine writes (frontmatter keys and sections)', async () => {
    const root = tempProject({ 'src/a.ts': '/** Adds. */\nexport function add() {}\n', 'src/b.ts': "import { add } from './a.js';\nadd();\n" });
    await buildIntel(root);
    const page = readFileSync(path.join(intelPaths(root).entities, `${entityId('src/a.ts')}.md`), 'utf8');
    const shape = (t: string) => ({
      keys: [...(/^---\n([\s\S]*?)\n---/.exec(t)?.[1] ?? '').matchAll(/^([a-z_]+):/gm)].map((m) => m[1]),
      headings: [...t.matchAll(/^(#+) (.*)$/gm)].map((m) => `${m[1]} ${m[2].replace(/`.*`/, '`PATH`')}`),
    });
    assert.deepEqual(shape(readFileSync(path.join(repoRoot, 'templates', 'entity.md'), 'utf8')), shape(page));
  });

  it('docs/workflow.md names every command and agent', () => {
    const d = docs()[0].text;
    for (const c of COMMANDS) assert.ok(d.includes(`/gsd:${c}`), `docs/workflow.md lacks /gsd:${c}`);
    for (const a of AGENTS) assert.ok(d.includes(a), `docs/workflow.md lacks ${a}`);
    assert.ok(d.split('\n').length < 100, 'one page');
  });
});
