import type { RunResult } from '../src/run/results.js';

const esc = (s: string) =>
  s
    // XML 1.0 cannot carry most control characters, even escaped; a target's body may hold them.
    .split('')
    .filter((ch) => {
      const c = ch.charCodeAt(0);
      return c >= 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
    })
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** `junit.xml`: one testsuite per interface, one testcase per check, named by its requirement id. */
export function renderJunit(r: RunResult): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = r.requirements.flatMap((q) => q.checks.map((c) => ({ q, c })));
  const count = (pred: (o: string) => boolean) => all.filter(({ c }) => pred(c.outcome)).length;
  out.push(
    `<testsuites name="storefront-conformance" tests="${all.length}" failures="${count((o) => o === 'failed')}" errors="${count((o) => o === 'error')}" skipped="${count((o) => o === 'skipped')}" time="${(r.durationMs / 1000).toFixed(3)}">`,
  );
  for (const s of r.interfaces) {
    const mine = all.filter(({ q }) => q.interface === s.interface);
    const t = mine.reduce((n, { c }) => n + c.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${s.interface}" tests="${mine.length}" failures="${mine.filter(({ c }) => c.outcome === 'failed').length}" errors="${mine.filter(({ c }) => c.outcome === 'error').length}" skipped="${mine.filter(({ c }) => c.outcome === 'skipped').length}" time="${t.toFixed(3)}">`,
    );
    out.push(
      `    <properties><property name="verdict" value="${s.verdict}"/><property name="seed" value="${r.seed}"/></properties>`,
    );
    for (const { q, c } of mine) {
      out.push(
        `    <testcase classname="${esc(`${s.interface}.${c.area}`)}" name="${esc(`${q.id} ${c.title}`)}" time="${(c.durationMs / 1000).toFixed(3)}">`,
      );
      out.push(
        `      <properties><property name="requirement" value="${q.id}"/><property name="level" value="${q.level}"/></properties>`,
      );
      if (c.outcome === 'failed') {
        const curl = c.evidence?.exchanges[0]?.curl;
        const kind = q.waiver ? 'waived failure' : `${q.level} failed`;
        out.push(
          `      <failure type="${esc(kind)}" message="${esc((c.reason ?? '').split('\n')[0] ?? '')}">${esc(`${c.reason ?? ''}${curl ? `\nreplay: ${curl}` : ''}`)}</failure>`,
        );
      } else if (c.outcome === 'error')
        out.push(
          `      <error type="suite error" message="${esc((c.reason ?? '').split('\n')[0] ?? '')}">${esc(c.reason ?? '')}</error>`,
        );
      else if (c.outcome === 'skipped') out.push(`      <skipped message="${esc(c.reason ?? '')}"/>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
