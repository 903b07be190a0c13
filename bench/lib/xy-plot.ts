/**
 * An SVG line plot of measured points (x: a size, y: a time), one line per series, solid or dashed,
 * with the values at each point. Plain SVG text, drawn as rps-plot.ts draws: no plotting dependency.
 */
import { escapeXml, plotFrame } from "./rps-plot";

export interface XySeries {
  readonly label: string;
  readonly color: string;
  readonly dashed?: boolean;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
}

export interface XyPlotOptions {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
}

const W = 900;
const H = 460;
const M = { left: 64, right: 24, top: 48, bottom: 120 };

export function xySvg(series: readonly XySeries[], options: XyPlotOptions): string {
  const points = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...points.map((p) => p.x));
  const yMax = Math.max(1e-9, ...points.map((p) => p.y)) * 1.1;
  const x = (v: number) => M.left + (v / xMax) * (W - M.left - M.right);
  const y = (v: number) => H - M.bottom - (v / yMax) * (H - M.top - M.bottom);
  const parts = plotFrame({
    width: W,
    height: H,
    margin: M,
    title: options.title,
    x: { max: xMax, ticks: 10, at: x, label: options.xLabel, format: (v) => v.toLocaleString("en-US") },
    y: { max: yMax, ticks: 6, at: y, label: options.yLabel },
  });
  series.forEach((s, i) => {
    const sorted = [...s.points].sort((a, b) => a.x - b.x);
    const dash = s.dashed === true ? ` stroke-dasharray="6 4"` : "";
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} points="${sorted.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ")}"/>`);
    for (const p of sorted) parts.push(`<circle cx="${x(p.x).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="3" fill="${s.color}"/>`);
    const ly = H - M.bottom + 56 + i * 16;
    parts.push(`<line x1="${M.left}" x2="${M.left + 28}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="2"${dash}/>`);
    const values = sorted.map((p) => `${p.x.toLocaleString("en-US")}: ${p.y.toFixed(1)}`).join(", ");
    parts.push(`<text x="${M.left + 36}" y="${ly}">${escapeXml(`${s.label} (${values})`)}</text>`);
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
