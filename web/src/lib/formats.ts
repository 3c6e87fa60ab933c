import type { components } from '@/api/schema'

/** An interview format, as the contract enumerates them. */
export type Format = components['schemas']['Preset']['format']

/** How each format is named and described in the setup and on the session screen. */
export const FORMAT_TEXT: Record<Format, { label: string; hint: string; count: string }> = {
  traditional: { label: 'Traditional', hint: 'One question after another; record when you are ready.', count: 'Number of questions' },
  mmi: { label: 'MMI stations', hint: 'Read a scenario with a notes pad, then answer as the station’s follow-ups appear.', count: 'Number of stations' },
  kira: { label: 'Kira-style', hint: 'Short preparation, then one timed take that starts by itself.', count: 'Number of questions' },
  casper: {
    label: 'Casper-style',
    hint: 'Scenarios answered on camera (two questions, a minute each) and in writing (two questions, one limit).',
    count: 'Number of scenarios',
  },
}

/** "2 min", "1 min 30 s", "45 s". */
export function formatDuration(seconds: number): string {
  const m = Math.floor(seconds / 60)
  const s = seconds % 60
  if (m === 0) return `${s} s`
  return s === 0 ? `${m} min` : `${m} min ${s} s`
}
