import { formatDuration } from './format';
import type { HealthBucket } from './types';

/**
 * Small charts of a scheme's window (GET /admin/v1/schemes/health `series`), drawn as inline SVG
 * by the console itself: a curve is read faster than a table. Each is an image with a text
 * alternative saying what it shows (its peak and its latest value), and its colours come from the
 * style sheet. The x axis is time, oldest on the left, one step per bucket.
 */
const WIDTH = 240;
const HEIGHT = 48;
/** Outcomes drawn as success (the rest of the decided ones are failures). */
const SUCCESS = new Set(['APPROVED', 'SUCCESSFUL', 'PAID', 'ACCEPTED']);

interface ChartProps {
  readonly series: readonly HealthBucket[];
  readonly bucketMinutes: number;
  readonly label: string;
}

function x(index: number, count: number): number {
  return count <= 1 ? WIDTH / 2 : (index / (count - 1)) * WIDTH;
}

function y(value: number, max: number): number {
  return max <= 0 ? HEIGHT : HEIGHT - (value / max) * (HEIGHT - 2);
}

/** Runs of consecutive defined values, each an SVG points list: a gap in the data is a gap in the line. */
function segments(values: readonly (number | null)[], max: number): string[] {
  const runs: string[][] = [];
  let run: string[] = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (run.length > 0) runs.push(run);
      run = [];
      return;
    }
    run.push(`${x(index, values.length).toFixed(1)},${y(value, max).toFixed(1)}`);
  });
  if (run.length > 0) runs.push(run);
  return runs.map((points) => (points.length === 1 ? `${points[0]} ${points[0]}` : points.join(' ')));
}

function Frame(props: { readonly label: string; readonly title: string; readonly figure: string; readonly children: preact.ComponentChildren }) {
  return (
    <figure class="chart">
      <figcaption>
        {props.title} <span class="chart-figure">{props.figure}</span>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={props.label}>
        <title>{props.label}</title>
        <line class="chart-base" x1="0" y1={HEIGHT} x2={WIDTH} y2={HEIGHT} vector-effect="non-scaling-stroke" />
        {props.children}
      </svg>
    </figure>
  );
}

function perMinute(value: number, bucketMinutes: number): string {
  const rate = value / bucketMinutes;
  return Number.isInteger(rate) ? String(rate) : rate.toFixed(1);
}

/** Accepted per minute, as a line. */
export function AcceptedChart({ series, bucketMinutes, label }: ChartProps) {
  const values = series.map((bucket) => bucket.accepted);
  const max = Math.max(0, ...values);
  const latest = values.at(-1) ?? 0;
  const figure = `peak ${perMinute(max, bucketMinutes)}/min, latest ${perMinute(latest, bucketMinutes)}/min`;
  return (
    <Frame title="Accepted per minute" figure={figure} label={`${label}: accepted per minute, ${figure}`}>
      {segments(values, max).map((points, index) => (
        <polyline key={index} class="chart-line" points={points} vector-effect="non-scaling-stroke" />
      ))}
    </Frame>
  );
}

/** Outcomes per bucket, as stacked bars: successes below, failures above them. */
export function OutcomesChart({ series, label }: ChartProps) {
  const counted = series.map((bucket) => {
    const good = bucket.outcomes.filter((each) => SUCCESS.has(each.outcome)).reduce((sum, each) => sum + each.count, 0);
    const decided = bucket.outcomes.reduce((sum, each) => sum + each.count, 0);
    return { good, bad: decided - good };
  });
  const max = Math.max(0, ...counted.map((each) => each.good + each.bad));
  const good = counted.reduce((sum, each) => sum + each.good, 0);
  const bad = counted.reduce((sum, each) => sum + each.bad, 0);
  const slot = WIDTH / Math.max(1, counted.length);
  const bar = Math.max(1, slot - 1);
  const figure = `${good} succeeded, ${bad} failed`;
  return (
    <Frame title="Outcomes" figure={figure} label={`${label}: outcomes, ${figure}`}>
      {counted.map((each, index) => {
        const goodTop = y(each.good, max);
        const badTop = y(each.good + each.bad, max);
        return (
          <g key={index}>
            {each.good === 0 ? null : <rect class="chart-good" x={index * slot} y={goodTop} width={bar} height={HEIGHT - goodTop} />}
            {each.bad === 0 ? null : <rect class="chart-bad" x={index * slot} y={badTop} width={bar} height={goodTop - badTop} />}
          </g>
        );
      })}
    </Frame>
  );
}

/** The p95 time from acceptance to outcome per bucket, as a line with gaps where nothing was decided. */
export function LatencyChart({ series, label }: ChartProps) {
  const values = series.map((bucket) => bucket.p95Ms);
  const defined = values.filter((value): value is number => value !== null);
  const max = Math.max(0, ...defined);
  const latest = defined.at(-1);
  const figure = defined.length === 0 ? 'none decided' : `peak ${formatDuration(max)}, latest ${formatDuration(latest ?? 0)}`;
  return (
    <Frame title="p95 latency" figure={figure} label={`${label}: p95 latency, ${figure}`}>
      {segments(values, max).map((points, index) => (
        <polyline key={index} class="chart-line chart-latency" points={points} vector-effect="non-scaling-stroke" />
      ))}
    </Frame>
  );
}
