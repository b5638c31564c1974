/** The graph page's stylesheet (inlined into the page by page.ts). */
export const PAGE_CSS = `
:root { --bg:#f7f7f5; --fg:#1f2328; --muted:#6a737d; --line:#d8dadd; --panel:#ffffff; --accent:#d1495b; }
* { box-sizing: border-box; }
html, body { margin:0; height:100%; background:var(--bg); color:var(--fg); font:14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
body { display:flex; flex-direction:column; }
header { display:flex; align-items:center; gap:16px; padding:8px 14px; background:var(--panel); border-bottom:1px solid var(--line); }
header .title { white-space:nowrap; font-size:15px; }
header .title span { color:var(--muted); margin-left:6px; font-size:13px; }
.search { position:relative; flex:1; max-width:560px; }
.search input { width:100%; padding:7px 10px; border:1px solid var(--line); border-radius:6px; font:inherit; background:#fbfbfa; }
.search input:focus { outline:2px solid #9ec5fe; border-color:#6ea8fe; }
#results { position:absolute; z-index:20; top:100%; left:0; right:0; margin:4px 0 0; padding:4px 0; list-style:none; background:var(--panel); border:1px solid var(--line); border-radius:6px; box-shadow:0 6px 18px rgba(0,0,0,.12); max-height:60vh; overflow:auto; }
#results li { padding:5px 10px; cursor:pointer; font-family:ui-monospace, "DejaVu Sans Mono", monospace; font-size:12.5px; }
#results li small { color:var(--muted); font-family:system-ui, sans-serif; margin-left:8px; }
#results li.active, #results li:hover { background:#eef4ff; }
.buttons button { font:inherit; font-size:13px; padding:6px 10px; margin-left:4px; border:1px solid var(--line); background:#fbfbfa; border-radius:6px; cursor:pointer; }
.buttons button:hover { background:#eef1f4; }
#notice { padding:6px 14px; background:#fff6d6; border-bottom:1px solid #f0dc9a; font-size:13px; }
main { flex:1; display:flex; min-height:0; }
#graph { flex:1; min-width:0; position:relative; }
#panel { width:400px; overflow:auto; background:var(--panel); border-left:1px solid var(--line); padding:12px 14px; font-size:13px; }
#panel h2 { font-size:14px; margin:0 0 6px; word-break:break-all; font-family:ui-monospace, "DejaVu Sans Mono", monospace; }
#panel h3 { font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); margin:14px 0 4px; }
#panel p { margin:4px 0; }
#panel .purpose { white-space:pre-wrap; }
#panel ul { list-style:none; margin:0; padding:0; }
#panel li { display:flex; justify-content:space-between; gap:8px; padding:2px 0 2px 8px; border-left:4px solid transparent; font-family:ui-monospace, "DejaVu Sans Mono", monospace; font-size:12px; cursor:pointer; word-break:break-all; }
#panel li:hover { background:#f2f4f7; }
#panel li .n { flex:none; color:var(--muted); font-family:system-ui, sans-serif; }
#panel .chips span { display:inline-block; margin:2px 4px 2px 0; padding:1px 6px; background:#eef1f4; border-radius:10px; font-family:ui-monospace, monospace; font-size:11.5px; }
#panel .muted { color:var(--muted); }
#tip { position:fixed; z-index:30; max-width:420px; pointer-events:none; background:#1f2328; color:#fff; padding:7px 9px; border-radius:6px; font-size:12.5px; box-shadow:0 4px 14px rgba(0,0,0,.25); }
#tip b { font-family:ui-monospace, "DejaVu Sans Mono", monospace; font-weight:600; word-break:break-all; }
#legend { position:fixed; left:12px; bottom:10px; background:rgba(255,255,255,.92); border:1px solid var(--line); border-radius:6px; padding:6px 9px; font-size:12px; }
#legend i { display:inline-block; width:11px; height:11px; border-radius:50%; margin:0 4px 0 10px; vertical-align:-1px; }
#legend i:first-child { margin-left:0; }
`;
