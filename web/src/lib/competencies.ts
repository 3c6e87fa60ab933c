import type { components } from '@/api/schema'

/** An AAMC-style competency an answer can show, from the contract's enum. */
export type Competency = components['schemas']['Feedback']['competencies'][number]

/** How a competency reads on the page; the Record keeps it exhaustive over the generated enum. */
export const COMPETENCY_LABEL: Record<Competency, string> = {
  'ethical-responsibility': 'Ethical responsibility',
  'empathy-compassion': 'Empathy & compassion',
  teamwork: 'Teamwork',
  'oral-communication': 'Oral communication',
  reliability: 'Reliability',
  'resilience-adaptability': 'Resilience & adaptability',
  'service-orientation': 'Service orientation',
  'cultural-humility': 'Cultural humility',
  'critical-thinking': 'Critical thinking',
}
