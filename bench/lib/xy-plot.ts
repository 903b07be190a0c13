/**
 * An SVG line plot of measured points (x: a size, y: a time), one line per series, solid or dashed,
 * with the values at each point. Plain SVG text, drawn as rps-plot.ts draws: no plotting dependency.
 */
import { escapeXml, tickStep } from "./rps-plot";

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
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(`<text x="${W / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`);
  const yStep = tickStep(yMax, 6);
  for (let v = 0; v <= yMax + 1e-9; v += yStep) {
    parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${M.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${Number(v.toFixed(2))}</text>`);
  }
  const xStep = tickStep(xMax, 10);
  for (let v = 0; v <= xMax + 1e-9; v += xStep) {
    parts.push(`<line x1="${x(v).toFixed(1)}" x2="${x(v).toFixed(1)}" y1="${H - M.bottom}" y2="${H - M.bottom + 4}" stroke="#333"/>`);
    parts.push(`<text x="${x(v).toFixed(1)}" y="${H - M.bottom + 17}" text-anchor="middle">${v.toLocaleString("en-US")}</text>`);
  }
  parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${H - M.bottom}" y2="${H - M.bottom}" stroke="#333"/>`);
  parts.push(`<line x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${H - M.bottom}" stroke="#333"/>`);
  parts.push(`<text x="${W / 2}" y="${H - M.bottom + 34}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${(M.top + H - M.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`);
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
