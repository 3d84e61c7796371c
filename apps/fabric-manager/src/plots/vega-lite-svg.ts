/**
 * A Vega-Lite specification drawn to SVG without a browser (compiled to Vega, rendered headless):
 * the drill report's plot and the cost report's. The plotting libraries load on first use.
 */
export async function renderVegaLiteSvg(spec: object): Promise<string> {
  const [vega, vegaLite] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vegaLite.compile(spec as unknown as Parameters<typeof vegaLite.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return (await view.toSVG()) + '\n';
  } finally {
    view.finalize();
  }
}
