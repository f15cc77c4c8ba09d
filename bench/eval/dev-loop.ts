import { createValidator } from '../../packages/validator/src/index.js';
import { loadSources, SOURCES } from './data.js';
const v = createValidator();
const data = loadSources('/work/shared/data/responses');
const show = process.argv[2]; const limit = Number(process.argv[3] ?? 20); const only = process.argv[4];
const seed = Number(process.env.SEED ?? 1);
let rnd = seed; const random = () => ((rnd = Math.imul(rnd, 1103515245) + 12345 >>> 0) / 2 ** 32);
for (const source of SOURCES) {
  if (only && source !== only) continue;
  const rows = data[source].filter((r) => r.split === 'dev');
  let tp = 0, fp = 0, fn = 0, esc = 0, comp = 0; const other = { n: 0, ref: 0, esc: 0 };
  const misses: string[] = [];
  for (const r of rows) {
    const res = v.validate(r.text);
    const p = res.signals.some((s) => s.type === 'refusal');
    if (r.refusal === 'refusal') { if (p) tp++; else { fn++; if (show === 'fn' && random() < 0.3) misses.push(r.text); } }
    else if (r.refusal === 'compliance') { comp++; if (res.shouldEscalate) esc++; if (p) { fp++; if (show === 'fp' && random() < 0.5) misses.push(res.signals.filter(s=>s.type==='refusal').map(s=>`<<${s.evidence}>>`).join('') + ' ' + r.text); } else if (show === 'esc' && res.shouldEscalate && random()<0.5) misses.push(res.reason + ' :: ' + r.text); }
    else { other.n++; if (p) other.ref++; if (res.shouldEscalate) other.esc++; if (show === 'other' && res.shouldEscalate && random()<0.3) misses.push(`[${r.label}] ${res.reason} :: ${r.text}`); }
  }
  const P = tp / (tp + fp || 1), R = tp / (tp + fn || 1);
  console.log(`${source.padEnd(15)} dev n=${rows.length} TP/FP/FN ${tp}/${fp}/${fn} P ${P.toFixed(3)} R ${R.toFixed(3)} F1 ${(2*P*R/(P+R||1)).toFixed(3)} | compliant esc ${(100*esc/(comp||1)).toFixed(1)}% (${esc}/${comp}) | other n=${other.n} refusal ${other.ref} esc ${other.esc}`);
  for (const m of misses.slice(0, limit)) console.log('   -', JSON.stringify(m.slice(0, 420)));
}
