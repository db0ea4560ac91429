import type { CheckResult, InterfaceSummary, RequirementResult, RunResult } from '../src/run/results.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const STYLE = `
:root{--ok:#1a7f37;--bad:#cf222e;--warn:#9a6700;--muted:#57606a;--line:#d0d7de;--bg:#f6f8fa}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:24px 32px;border-bottom:1px solid var(--line);background:var(--bg)}
h1{margin:0 0 4px;font-size:22px}h2{font-size:18px;margin:32px 0 12px}h3{font-size:15px;margin:0}
main{padding:0 32px 48px;max-width:1280px}
.meta{color:var(--muted);font-size:13px}.meta code{font-size:12px}
.verdict{display:inline-block;padding:2px 10px;border-radius:12px;font-weight:600;font-size:13px;color:#fff}
.v-conformant{background:var(--ok)}.v-non-conformant{background:var(--bad)}.v-incomplete{background:var(--warn)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:12px;margin-top:16px}
.card{border:1px solid var(--line);border-radius:8px;padding:14px;background:#fff}
.card .n{display:flex;gap:12px;margin-top:8px;font-size:13px;color:var(--muted)}.card .n b{color:#1f2328}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--bg);position:sticky;top:0}
.s-passed{color:var(--ok)}.s-failed{color:var(--bad);font-weight:600}.s-skipped{color:var(--warn)}.s-untested{color:var(--muted)}
.filters{display:flex;gap:16px;flex-wrap:wrap;margin:8px 0 12px;align-items:center}.filters label{font-size:13px}
.filters input[type=search]{padding:4px 8px;border:1px solid var(--line);border-radius:6px;min-width:240px}
details.failure{border:1px solid #ffcecb;border-left:4px solid var(--bad);border-radius:6px;margin:10px 0;padding:10px 14px;background:#fff}
details.failure summary{cursor:pointer}pre{background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:8px;overflow:auto;max-height:320px;font-size:12px;white-space:pre-wrap;word-break:break-all}
.why{white-space:pre-wrap;margin:8px 0}.muted{color:var(--muted)}.tag{font-size:11px;border:1px solid var(--line);border-radius:10px;padding:0 6px;margin-left:6px;color:var(--muted)}
`;

const SCRIPT = `
const boxes=[...document.querySelectorAll('.filters input[type=checkbox]')];const q=document.getElementById('q');
function apply(){const on=new Set(boxes.filter(b=>b.checked).map(b=>b.value));const text=q.value.toLowerCase();let shown=0;
for(const tr of document.querySelectorAll('#reqs tbody tr')){const ok=on.has('s:'+tr.dataset.status)&&on.has('l:'+tr.dataset.level)&&on.has('i:'+tr.dataset.iface)&&(!text||tr.textContent.toLowerCase().includes(text));tr.hidden=!ok;if(ok)shown++;}
document.getElementById('shown').textContent=shown;}
boxes.forEach(b=>b.addEventListener('change',apply));q.addEventListener('input',apply);apply();
`;

/** `conformance-report.html`: one self-contained page (inline style and script, no external assets). */
export function renderHtml(r: RunResult): string {
  const failed = r.requirements.filter((q) => q.status === 'failed');
  const levels = ['MUST', 'SHOULD', 'MAY', 'ADVISORY'];
  const statuses = ['failed', 'passed', 'skipped', 'untested'];
  const ifaces = r.interfaces.map((s) => s.interface);
  const box = (prefix: string, v: string) => `<label><input type="checkbox" value="${prefix}:${v}" checked> ${v}</label>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Conformance report: ${esc(r.verdict)}</title><style>${STYLE}</style></head>
<body>
<header>
<h1>Storefront conformance report <span class="verdict v-${r.verdict}">${esc(r.verdict)}</span></h1>
<div class="meta">${esc(r.tool.name)} ${esc(r.tool.version)} · specs <code>${esc(r.specDigest.slice(0, 23))}…</code> · run <code>${esc(r.runId)}</code> · seed <code>${r.seed}</code> · started ${esc(r.startedAt)} · ${(r.durationMs / 1000).toFixed(1)} s · ${r.requests} requests</div>
<div class="meta">${Object.entries(r.targets)
    .map(([k, v]) => `${esc(k)}: <code>${esc(String(v))}</code>`)
    .join(' · ')}</div>
${r.aborted ? `<div class="meta"><strong>The run was aborted</strong>: ${esc(r.aborted)}. What did not run is untested, not passed.</div>` : ''}
<div class="cards">${r.interfaces.map(card).join('')}</div>
</header>
<main>
${failed.length > 0 ? `<h2>Failures (${failed.length})</h2>${failed.map(failure).join('')}` : '<h2>No failures</h2>'}
${r.suiteErrors.length > 0 ? `<h2>Suite errors (not the target's fault)</h2><ul>${r.suiteErrors.map((e) => `<li><code>${esc(e.file)}</code>: ${esc(e.message.split('\n')[0] ?? '')}</li>`).join('')}</ul>` : ''}
<h2>Requirements</h2>
<div class="filters">
<span>${statuses.map((s) => box('s', s)).join(' ')}</span>
<span>${levels.map((l) => box('l', l)).join(' ')}</span>
<span>${ifaces.map((i) => box('i', i)).join(' ')}</span>
<input id="q" type="search" placeholder="filter by id or text"> <span class="muted"><span id="shown"></span> shown</span>
</div>
<table id="reqs"><thead><tr><th>id</th><th>level</th><th>interface</th><th>status</th><th>statement</th><th>source</th><th>checks</th></tr></thead><tbody>
${r.requirements.map(row).join('\n')}
</tbody></table>
${ambiguities(r)}
${r.notShown.length > 0 ? `<h2>Not shown by the documents</h2><p class="muted">What the documents leave open: never asserted, and no one can certify it yet.</p><table><thead><tr><th>id</th><th>interface</th><th>subject</th><th>reason</th></tr></thead><tbody>${r.notShown.map((n) => `<tr><td>${esc(n.id)}</td><td>${esc(n.interface)}</td><td>${esc(n.subject)}</td><td>${esc(n.reason)}</td></tr>`).join('')}</tbody></table>` : ''}
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}

function card(s: InterfaceSummary): string {
  const warn = s.warnings.length > 0 ? `<div class="muted">${s.warnings.length} SHOULD warning(s)</div>` : '';
  const inc = s.unexercisedMust.length > 0 ? `<div class="muted">${s.unexercisedMust.length} MUST not exercised</div>` : '';
  return `<div class="card"><h3>${esc(s.interface)}</h3><span class="verdict v-${s.verdict}">${esc(s.verdict)}</span>
<div class="n"><span><b>${s.counts.passed}</b> passed</span><span><b>${s.counts.failed}</b> failed</span><span><b>${s.counts.skipped}</b> skipped</span><span><b>${s.counts.untested}</b> untested</span></div>${warn}${inc}</div>`;
}

function row(q: RequirementResult): string {
  const status = q.waiver ? `waived until ${q.waiver.expires}` : q.status;
  const reason = q.status !== 'passed' && q.reason ? `<div class="muted">${esc(q.reason.split('\n')[0] ?? '')}</div>` : '';
  return `<tr data-status="${q.status}" data-level="${q.level}" data-iface="${q.interface}"><td><code>${esc(q.id)}</code></td><td>${q.level}</td><td>${esc(q.interface)}</td><td class="s-${q.status}">${esc(status)}</td><td>${esc(q.statement)}${reason}</td><td class="muted">${esc(q.source.section)}${q.source.detail ? `, ${esc(q.source.detail)}` : ''}</td><td>${q.checks.length}</td></tr>`;
}

function failure(q: RequirementResult): string {
  const checks = q.checks.filter((c) => c.outcome === 'failed');
  return `<details class="failure" open><summary><b>${esc(q.id)}</b> <span class="tag">${q.level}</span><span class="tag">${esc(q.interface)}</span> ${esc(q.statement)}${q.waiver ? ` <span class="tag">waived: ${esc(q.waiver.reason)}</span>` : ''}</summary>
<div class="muted">${esc(q.source.document)} · section “${esc(q.source.section)}”${q.source.detail ? ` · ${esc(q.source.detail)}` : ''}</div>
${checks.map(checkEvidence).join('')}</details>`;
}

function checkEvidence(c: CheckResult): string {
  const exchanges = (c.evidence?.exchanges ?? [])
    .map((ex) => {
      const res = ex.response
        ? `HTTP ${ex.response.status}${ex.response.truncated ? ' (body cut)' : ''}\n${Object.entries(ex.response.headers)
            .map(([k, v]) => `${k}: ${v}`)
            .join('\n')}\n\n${ex.response.body}`
        : `no response: ${ex.error ?? ''}`;
      return `<div class="muted">Replay:</div><pre>${esc(ex.curl)}</pre><div class="muted">Response (${ex.durationMs} ms):</div><pre>${esc(res)}</pre>`;
    })
    .join('');
  return `<h3>${esc(c.title)}</h3><div class="why">${esc(c.reason ?? '')}</div>${exchanges}`;
}

function ambiguities(r: RunResult): string {
  if (r.ambiguities.length === 0) return '';
  const rows = r.ambiguities
    .map((a) => {
      const chosen = a.chosen ? (a.alternatives.find((x) => x.id === a.chosen)?.description ?? a.chosen) : '(not probed)';
      return `<tr><td>${esc(a.id)}</td><td>${esc(a.interface)}</td><td>${esc(a.subject)}</td><td>${esc(a.alternatives.map((x) => x.id).join(' | '))}</td><td>${esc(chosen)}</td></tr>`;
    })
    .join('');
  return `<h2>Ambiguities: what the target chose</h2><p class="muted">Where the documents contradict themselves, either reading is accepted; this is the one the target uses.</p><table><thead><tr><th>id</th><th>interface</th><th>subject</th><th>alternatives</th><th>target's choice</th></tr></thead><tbody>${rows}</tbody></table>`;
}
