import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

/** A Vega-Lite specification, as accepted by {@link renderSvg}. */
export type ChartSpec = TopLevelSpec;

/** Renders a Vega-Lite specification to a standalone SVG document, headless (no browser). */
export async function renderSvg(spec: ChartSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
