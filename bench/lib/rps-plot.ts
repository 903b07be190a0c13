/**
 * An SVG plot of requests per second over time, from the simulator's request logs: one line of
 * requests a second (every request: served and refused) and one of 429s a second per series, and
 * the service's limit as a dashed line. Plain SVG text: no plotting dependency.
 */

export interface RpsSeries {
  readonly label: string;
  readonly color: string;
  /** Arrivals in ms from the series' own start, and the status answered. */
  readonly log: ReadonlyArray<{ readonly atMs: number; readonly status: number }>;
}

export interface RpsPlotOptions {
  readonly title: string;
  readonly limitRps: number;
  /** Width of a bin. @default 1000 */
  readonly binMs?: number;
  /** Plot no further than this (the rest is summarized in the legend). @default - the longest series */
  readonly maxSeconds?: number;
}

/** Counts per bin: all requests, and the 429s among them. */
export function binRequests(log: RpsSeries["log"], binMs: number, bins: number): { all: number[]; refused: number[] } {
  const all = new Array<number>(bins).fill(0);
  const refused = new Array<number>(bins).fill(0);
  for (const entry of log) {
    const i = Math.floor(entry.atMs / binMs);
    if (i < 0 || i >= bins) continue;
    all[i] = (all[i] ?? 0) + 1;
    if (entry.status === 429) refused[i] = (refused[i] ?? 0) + 1;
  }
  return { all, refused };
}

const W = 900;
const H = 420;
const M = { left: 56, right: 20, top: 48, bottom: 86 };

export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A "nice" step for about `count` ticks over `span`. */
function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = [1, 2, 5, 10].find((u) => u * power >= raw) ?? 10;
  return unit * power;
}

/** One axis of a plot: its largest value, about how many ticks, where a value is drawn, its label. */
export interface PlotAxis {
  readonly max: number;
  readonly ticks: number;
  readonly at: (value: number) => number;
  readonly label: string;
  /** A tick's text. @default - the value to 2 decimals */
  readonly format?: (value: number) => string;
}

/**
 * The start of a plot's SVG, as lines to which the caller adds its series and `</svg>`: white
 * background, title, horizontal grid with y ticks, x ticks, both axes and their labels.
 */
export function plotFrame(frame: {
  readonly width: number;
  readonly height: number;
  readonly margin: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
  readonly title: string;
  readonly x: PlotAxis;
  readonly y: PlotAxis;
}): string[] {
  const { width: w, height: h, margin: m, x, y } = frame;
  const text = (axis: PlotAxis, v: number) => (axis.format ?? ((n: number) => String(Number(n.toFixed(2)))))(v);
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${w}" height="${h}" fill="white"/>`);
  parts.push(`<text x="${w / 2}" y="24" text-anchor="middle" font-size="15">${escapeXml(frame.title)}</text>`);
  const yStep = tickStep(y.max, y.ticks);
  for (let v = 0; v <= y.max + 1e-9; v += yStep) {
    parts.push(`<line x1="${m.left}" x2="${w - m.right}" y1="${y.at(v).toFixed(1)}" y2="${y.at(v).toFixed(1)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${m.left - 6}" y="${(y.at(v) + 4).toFixed(1)}" text-anchor="end">${escapeXml(text(y, v))}</text>`);
  }
  const xStep = tickStep(x.max, x.ticks);
  for (let v = 0; v <= x.max + 1e-9; v += xStep) {
    parts.push(`<line x1="${x.at(v).toFixed(1)}" x2="${x.at(v).toFixed(1)}" y1="${h - m.bottom}" y2="${h - m.bottom + 4}" stroke="#333"/>`);
    parts.push(`<text x="${x.at(v).toFixed(1)}" y="${h - m.bottom + 17}" text-anchor="middle">${escapeXml(text(x, v))}</text>`);
  }
  parts.push(`<line x1="${m.left}" x2="${w - m.right}" y1="${h - m.bottom}" y2="${h - m.bottom}" stroke="#333"/>`);
  parts.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${h - m.bottom}" stroke="#333"/>`);
  parts.push(`<text x="${w / 2}" y="${h - m.bottom + 34}" text-anchor="middle">${escapeXml(x.label)}</text>`);
  parts.push(`<text transform="translate(16 ${(m.top + h - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(y.label)}</text>`);
  return parts;
}

export function rpsSvg(series: readonly RpsSeries[], options: RpsPlotOptions): string {
  const binMs = options.binMs ?? 1000;
  const longest = Math.max(1, ...series.map((s) => Math.max(0, ...s.log.map((e) => e.atMs))));
  const seconds = Math.max(1, Math.ceil(Math.min(longest, (options.maxSeconds ?? Infinity) * 1000) / 1000));
  const bins = Math.ceil((seconds * 1000) / binMs);
  const binned = series.map((s) => ({ s, ...binRequests(s.log, binMs, bins) }));
  const perSecond = 1000 / binMs;
  const peak = Math.max(options.limitRps * 1.5, ...binned.flatMap((b) => b.all.map((n) => n * perSecond)));
  const x = (sec: number) => M.left + (sec / seconds) * (W - M.left - M.right);
  const y = (rps: number) => H - M.bottom - (rps / peak) * (H - M.top - M.bottom);
  const step = (values: readonly number[]) =>
    values
      .map((n, i) => {
        const v = y(n * perSecond);
        return `${x((i * binMs) / 1000).toFixed(1)},${v.toFixed(1)} ${x(((i + 1) * binMs) / 1000).toFixed(1)},${v.toFixed(1)}`;
      })
      .join(" ");

  const parts = plotFrame({
    width: W,
    height: H,
    margin: M,
    title: options.title,
    x: { max: seconds, ticks: 10, at: x, label: "seconds since the run's first request", format: (s) => String(Number(s.toFixed(1))) },
    y: { max: peak, ticks: 6, at: y, label: `requests per second (bins of ${binMs / 1000} s)` },
  });
  // the limit
  parts.push(`<line x1="${M.left}" x2="${W - M.right}" y1="${y(options.limitRps).toFixed(1)}" y2="${y(options.limitRps).toFixed(1)}" stroke="#000" stroke-dasharray="6 4"/>`);
  parts.push(`<text x="${W - M.right - 4}" y="${(y(options.limitRps) - 5).toFixed(1)}" text-anchor="end">service limit ${options.limitRps}/s</text>`);
  // the series
  binned.forEach(({ s, all, refused }, i) => {
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.8" points="${step(all)}"/>`);
    parts.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.2" stroke-dasharray="2 3" points="${step(refused)}"/>`);
    const total = s.log.length;
    const refusedTotal = s.log.filter((e) => e.status === 429).length;
    const end = Math.max(0, ...s.log.map((e) => e.atMs)) / 1000;
    const ly = H - M.bottom + 52 + i * 16;
    parts.push(`<line x1="${M.left}" x2="${M.left + 24}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-width="1.8"/>`);
    parts.push(`<line x1="${M.left + 28}" x2="${M.left + 52}" y1="${ly - 4}" y2="${ly - 4}" stroke="${s.color}" stroke-dasharray="2 3"/>`);
    parts.push(
      `<text x="${M.left + 58}" y="${ly}">${escapeXml(`${s.label}: ${total} requests, ${refusedTotal} answered 429 (dotted), last at ${end.toFixed(1)} s${end > seconds ? " (plot cut)" : ""}`)}</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
