// Plots in the console: Vega-Lite (the library weft's reports already draw with), rendered in the browser by vega-embed.
import { useEffect, useRef } from 'react';
import embed from 'vega-embed';

export function VegaPlot({ spec, label }: { spec: Record<string, unknown>; label: string }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    // No actions menu: its links lead to the Vega editor on the internet.
    const shown = embed(element.current, spec as never, { actions: false, renderer: 'svg' });
    return () => void shown.then((r) => r.finalize());
  }, [spec]);
  // vega-embed takes the element it draws in over (its class, role and label): the plot's name is on a wrapper.
  return (
    <figure className="plot" data-plot={label}>
      <div ref={element} />
    </figure>
  );
}
