import { Check, CircleHelp, Minus, OctagonAlert } from 'lucide-react'
import { useId } from 'react'
import { Badge } from '@/components/ui/badge'
import { Disclosure } from '@/components/ui/disclosure'
import { COMPETENCY_LABEL, type Competency } from '@/lib/competencies'
import { scoreVariant } from '@/lib/score'
import { cn } from '@/lib/utils'
import {
  capitalize,
  MAX_LEVEL,
  type Evidence,
  type RedFlag,
  type SectionBreakdown,
} from './feedback'

/** Words of the answer, verbatim (the browser adds the quotation marks of <q>). */
function Quote({ text, className }: { text: string; className?: string }) {
  return (
    <blockquote className={cn('border-l-4 pl-3 text-sm italic', className)}>
      <q>{text}</q>
    </blockquote>
  )
}

/**
 * What an interviewer would treat as disqualifying, first and unmissable:
 * an icon and the words "Red flag" (never colour alone), the words that
 * raised it, why it matters and what a strong answer does instead.
 */
export function RedFlags({ flags }: { flags: readonly RedFlag[] }) {
  const headingId = useId()
  if (flags.length === 0) return null
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-3 rounded-lg border-2 border-red-700 bg-red-50 p-3 text-red-950 sm:p-4">
      <h3 id={headingId} className="flex items-center gap-2 font-semibold">
        <OctagonAlert aria-hidden="true" className="size-5 shrink-0 text-red-700" />
        {flags.length === 1 ? 'Red flag' : `Red flags (${flags.length})`}
      </h3>
      <p className="text-sm">Interviewers treat this as a serious concern, however good the rest of the answer is.</p>
      <ul className="grid gap-3">
        {flags.map((flag, i) => (
          <li key={`${flag.key}-${i}`} className="grid gap-2 rounded-md border border-red-200 bg-white p-3">
            <h4 className="font-semibold">{capitalize(flag.name)}</h4>
            {flag.quote ? (
              <div className="grid gap-1">
                <p className="text-xs font-semibold uppercase tracking-wide text-red-800">You said</p>
                <Quote text={flag.quote} className="border-red-300" />
              </div>
            ) : null}
            <dl className="grid gap-2 text-sm">
              <div>
                <dt className="font-semibold">Why it matters</dt>
                <dd>{flag.why}</dd>
              </div>
              <div>
                <dt className="font-semibold">What to do instead</dt>
                <dd>{flag.instead}</dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** A criterion's level as filled and empty boxes (shape, not colour) plus "n/7"; read as "Level n of 7". */
export function LevelScale({ level }: { level: number }) {
  return (
    <span className="inline-flex shrink-0 items-center gap-2">
      <span aria-hidden="true" className="flex gap-0.5">
        {Array.from({ length: MAX_LEVEL }, (_, i) => (
          <span key={i} className={cn('h-3 w-2.5 rounded-[2px] border', i < level ? 'border-primary bg-primary' : 'border-slate-500 bg-white')} />
        ))}
      </span>
      <span aria-hidden="true" className="text-sm font-semibold tabular-nums">
        {level}/{MAX_LEVEL}
      </span>
      <span className="sr-only">
        Level {level} of {MAX_LEVEL}
      </span>
    </span>
  )
}

function Criterion({ evidence }: { evidence: Evidence }) {
  return (
    <li className="grid gap-1 border-t border-border py-2 first:border-t-0 first:pt-0 print:break-inside-avoid">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="font-medium">{capitalize(evidence.criterion)}</span>
        <LevelScale level={evidence.level ?? 0} />
      </div>
      {evidence.anchor ? <p className="text-sm text-muted-foreground">{evidence.anchor}</p> : null}
      {evidence.quote ? <Quote text={evidence.quote} className="border-border" /> : null}
    </li>
  )
}

/** How an observation came out, in words for a screen reader (the icon says it to the eye). */
function outcome(evidence: Evidence): string {
  if (evidence.unjudged === 'not-measured') return 'Not measured: '
  if (evidence.unjudged) return 'Not judged: '
  return evidence.met ? 'Met: ' : 'Not met: '
}

/** A supporting observation: met, not met, or not measured (an icon and words), with the words or the measurement behind it. */
function Observation({ evidence }: { evidence: Evidence }) {
  const Icon = evidence.unjudged ? CircleHelp : evidence.met ? Check : Minus
  return (
    <li className="flex gap-2 text-sm print:break-inside-avoid">
      <Icon aria-hidden="true" className={cn('mt-0.5 size-4 shrink-0', evidence.met ? 'text-primary' : 'text-muted-foreground')} />
      <span className="min-w-0">
        <span className="sr-only">{outcome(evidence)}</span>
        {capitalize(evidence.criterion)}
        {evidence.quote ? (
          <>
            {' — '}
            <q className="italic">{evidence.quote}</q>
          </>
        ) : evidence.note ? (
          <span className="text-muted-foreground"> — {evidence.note}</span>
        ) : null}
      </span>
    </li>
  )
}

/** A titled list of observations; nothing when there are none. */
function Observations({ title, evidence }: { title: string; evidence: readonly Evidence[] }) {
  if (evidence.length === 0) return null
  return (
    <div className="grid gap-1">
      <h4 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{title}</h4>
      <ul className="grid gap-1">
        {evidence.map((e, i) => (
          <Observation key={`${e.criterion}-${i}`} evidence={e} />
        ))}
      </ul>
    </div>
  )
}

/**
 * "How this was scored": per section its score, then each criterion with
 * its level, the anchor that describes it and the words behind it. Each
 * section is a disclosure, open by default when it needs attention.
 */
export function ScoringBreakdown({ sections }: { sections: readonly SectionBreakdown[] }) {
  const headingId = useId()
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="text-sm font-semibold">
        How this was scored
      </h3>
      {sections.some((s) => s.points.length > 0) ? (
        // The server's formula (feedback.Score): the question's own points
        // set most of the overall, so it need not lie between the sections'.
        <p className="text-sm text-muted-foreground">Most of the score comes from this question’s points, listed under Content; the three sections make up the rest.</p>
      ) : null}
      <div className="grid gap-2">
        {sections.map((s) => (
          <Disclosure
            key={s.key}
            defaultOpen={s.open}
            className="rounded-md border border-border"
            buttonClassName="p-2"
            panelClassName="px-3 pb-3"
            label={
              <>
                <span className="flex-1">{s.label}</span>
                {s.unjudgedNote !== null ? <Badge variant="outline">Not judged</Badge> : <Badge variant={scoreVariant(s.score)}>{s.score}</Badge>}
              </>
            }
          >
            <div className="grid gap-3">
              {s.unjudgedNote !== null ? (
                <div className="grid gap-1 text-sm">
                  <p>{s.unjudgedNote}</p>
                  <p className="text-muted-foreground">Not judged: {s.notJudged.map((e) => capitalize(e.criterion)).join(', ')}.</p>
                </div>
              ) : null}
              {s.criteria.length ? (
                <ul className="grid">
                  {s.criteria.map((e, i) => (
                    <Criterion key={`${e.criterion}-${i}`} evidence={e} />
                  ))}
                </ul>
              ) : null}
              <Observations title="This question’s points" evidence={s.points} />
              <Observations title="Also checked" evidence={s.observations} />
            </div>
          </Disclosure>
        ))}
      </div>
    </div>
  )
}

/** The competencies the answer shows, by name. */
export function CompetencyTags({ competencies }: { competencies: readonly Competency[] }) {
  const headingId = useId()
  if (competencies.length === 0) return null
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-2">
      <h3 id={headingId} className="text-sm font-semibold">
        Competencies shown
      </h3>
      <ul className="flex flex-wrap gap-2">
        {competencies.map((c) => (
          <li key={c}>
            <Badge variant="outline">{COMPETENCY_LABEL[c]}</Badge>
          </li>
        ))}
      </ul>
    </div>
  )
}
