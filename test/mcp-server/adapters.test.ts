/** The tolerant GSD document parsers, in-process, over the variations real documents have. */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { parseDoc, parseYaml } from '../../mcp-server/src/adapters/markdown.js';
import { PhaseAdapter } from '../../mcp-server/src/adapters/phase.js';
import { ProjectAdapter } from '../../mcp-server/src/adapters/project.js';
import { RequirementsAdapter, requirementState } from '../../mcp-server/src/adapters/requirements.js';
import { RoadmapAdapter } from '../../mcp-server/src/adapters/roadmap.js';
import { isSecretPath, redact } from '../../mcp-server/src/security.js';
import { cleanupProjects, tempProject } from '../helpers/project.js';

after(cleanupProjects);

describe('mcp adapters', () => {
  it('parses the YAML subset of GSD frontmatter', () => {
    const y = parseYaml(
      'phase: 02-auth\nplan: 01\nfiles_modified: [src/a.ts, "src/b.ts"]\nkey-files:\n  created:\n    - src/c.ts\n  modified: []\nmust_haves:\n  truths:\n    - "User can x"\n  artifacts:\n    - path: src/a.ts\n      provides: A\n# comment\nscore: 3/3\n',
    );
    assert.equal(y.phase, '02-auth');
    assert.equal(y.plan, '01');
    assert.deepEqual(y.files_modified, ['src/a.ts', 'src/b.ts']);
    assert.deepEqual(y['key-files'], { created: ['src/c.ts'], modified: [] });
    assert.deepEqual(y.must_haves, { truths: ['User can x'], artifacts: [{ path: 'src/a.ts', provides: 'A' }] });
    assert.deepEqual(parseDoc('no frontmatter').frontmatter, {});
    assert.deepEqual(parseDoc('---\n: [ broken\n---\nbody').body, 'body');
  });

  it('reads roadmap variants: ## / ### headings, Phase 01 / 2.1, **Goal:** and Goal:, checklist and progress table', () => {
    const root = tempProject({
      '.planning/ROADMAP.md': [
        '# Roadmap',
        '- [x] **Phase 1: Setup** - scaffolding',
        '- [ ] **Phase 2.1: Hotfix**',
        '## Phase 01 — Setup',
        '**Goal:** Scaffold the app',
        '**Requirements:** SET-01, SET-02',
        '**Success Criteria:**',
        '1. App starts',
        '2. CI runs',
        '**Plans**: 2 plans',
        '### Phase 2.1: Hotfix',
        'Goal: Fix the login bug',
        '## Progress',
        '| Phase | Plans Complete | Status |',
        '|---|---|---|',
        '| 2.1 Hotfix | 0/1 | In progress |',
      ].join('\n'),
      '.planning/STATE.md': '---\ncurrent_phase: "02.1"\n---\nPhase: 2 of 3\n',
    });
    const r = new RoadmapAdapter(root);
    const phases = r.phases();
    assert.deepEqual(
      phases.map((p) => [p.number, p.name, p.goal, p.status]),
      [
        ['1', 'Setup', 'Scaffold the app', 'complete'],
        ['2.1', 'Hotfix', 'Fix the login bug', 'in progress'],
      ],
    );
    assert.deepEqual(phases[0].requirements, ['SET-01', 'SET-02']);
    assert.deepEqual(phases[0].successCriteria, ['App starts', 'CI runs']);
    assert.equal(r.state()?.currentPhase, '2.1');
  });

  it('reads requirement variants: bold or plain ids, checkboxes, traceability with other headers', () => {
    const root = tempProject({
      '.planning/REQUIREMENTS.md': [
        '## Auth',
        '- [x] **AUTH-01**: Log in',
        '- [ ] AUTH-02 - Reset password',
        '* [X] **AUTH-03** Sessions',
        '- plain bullet mentioning AUTH-01 later in text is not a requirement',
        '## Requirement Traceability',
        '| ID | Phase | Status |',
        '|--|--|--|',
        '| AUTH-02 | 02 | Blocked |',
        '| AUTH-04 | Phase 3 | Deferred |',
      ].join('\n'),
    });
    const reqs = new RequirementsAdapter(root).read();
    assert.deepEqual(
      reqs.map((r) => [r.id, r.text, r.checked, r.phase, requirementState(r)]),
      [
        ['AUTH-01', 'Log in', true, null, 'complete'],
        ['AUTH-02', 'Reset password', false, '02', 'blocked'],
        ['AUTH-03', 'Sessions', true, null, 'complete'],
        ['AUTH-04', '', null, '3', 'deferred'],
      ],
    );
  });

  it('reads PROJECT.md with a decision list instead of a table, and phases with VERIFICATION.md', () => {
    const root = tempProject({
      '.planning/PROJECT.md': '# Project: Shop\n\n## Vision\n\nSell things.\n\n## Key Decisions\n\n- Use Postgres\n- **No ORM**\n',
      '.planning/phases/03-pay/03-02-PLAN.md': '---\nphase: 03\nplan: 2\nfiles_modified:\n  - src/pay.ts\n---\n## Objective\nTake payments\n',
      '.planning/phases/03-pay/03-02-SUMMARY.md': '# 03-02 Payments\n\nStripe checkout works.\n\n## Issues Encountered\n\n- Webhook retries\n',
      '.planning/phases/03-pay/VERIFICATION.md': '# Verification\n\n**Status:** gaps_found\n',
    });
    const p = new ProjectAdapter(root).read();
    assert.deepEqual([p.name, p.vision, p.decisions.map((d) => d.decision)], ['Shop', 'Sell things.', ['Use Postgres', 'No ORM']]);
    const [phase] = new PhaseAdapter(root).list();
    assert.equal(phase.number, '3');
    assert.deepEqual([phase.plans[0].plan, phase.plans[0].objective, phase.plans[0].filesModified], ['3-02', 'Take payments', ['src/pay.ts']]);
    assert.deepEqual([phase.summaries[0].plan, phase.summaries[0].oneLiner, phase.summaries[0].lessons], ['03-02', 'Stripe checkout works.', ['Webhook retries']]);
    assert.equal(phase.verification?.status, 'gaps_found');
  });

  it('knows secrets and redacts them', () => {
    for (const p of ['.env', '.env.local', 'config/.env.production', 'keys/server.pem', 'id_rsa', 'a/.ssh/config', 'x.key', '.npmrc']) assert.ok(isSecretPath(p), p);
    for (const p of ['src/env.ts', 'src/environment.ts', 'src/keyboard.ts', 'docs/secrets-handling.md']) assert.ok(!isSecretPath(p), p);
    assert.deepEqual(redact({ query: 'use sk-abcdefghijklmnopqrstu now', apiKey: 'x', nested: { password: 'p' } }), {
      query: 'use [redacted] now',
      apiKey: '[redacted]',
      nested: { password: '[redacted]' },
    });
  });
});
