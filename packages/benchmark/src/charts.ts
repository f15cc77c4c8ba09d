import type { TopLevelSpec } from 'vega-lite';

/** A Vega-Lite specification, as accepted by {@link renderSvg}. */
export type ChartSpec = TopLevelSpec;

/** Renders a Vega-Lite specification to a standalone SVG document, headless (no browser). */
export async function renderSvg(spec: ChartSpec): Promise<string> {
  // Vega and Vega-Lite take most of a second to load: only what draws a chart reads them
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** A quantitative encoding of a share from 0 to 1, its axis in whole percentages. */
export function shareEncoding(field: string, title: string) {
  return {
    field,
    type: 'quantitative' as const,
    title,
    axis: { format: '.0%' },
    scale: { domain: [0, 1] },
  };
}
