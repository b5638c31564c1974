// The PostToolUse input Claude Code sends after an Edit of `file` (its content before the edit: `original`).
import os from 'node:os';
import path from 'node:path';

export function editPayload(root, file, original) {
  return JSON.stringify({
    session_id: 'bench',
    transcript_path: path.join(os.tmpdir(), 'bench.jsonl'),
    cwd: root,
    permission_mode: 'acceptEdits',
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'x', new_string: 'y', replace_all: false },
    tool_response: { filePath: file, oldString: 'x', newString: 'y', originalFile: original, structuredPatch: [], userModified: false, replaceAll: false },
    tool_use_id: 'toolu_bench',
    duration_ms: 5,
  });
}
