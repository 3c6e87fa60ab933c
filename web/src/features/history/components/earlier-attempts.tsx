import { useId, useState } from 'react'
import type { EarlierAnswersProps } from '@/components/summary/summary-layout'
import { Disclosure } from '@/components/ui/disclosure'
import { useEarlierAttempts, type Attempt } from '../api/get-earlier-attempts'
import { fillersCounted, type Answer, type AnswerMetrics } from '@/components/answer/answer'
import { wordDiff } from '../utils/word-diff'

type Metrics = AnswerMetrics

interface Row {
  label: string
  then: number | undefined
  now: number | undefined
  /** Decimals shown. */
  digits: number
  /** Which way is better; pace has a comfortable range, not a direction. */
  better: 'higher' | 'lower' | 'neither'
}

function rows(then: Attempt, now: Answer): Row[] {
  const f = now.feedback!
  const pauses = (m: Metrics | null | undefined) => (m?.pausesMeasured ? m.longestPauseSeconds : undefined)
  const fillers = (m: Metrics | null | undefined) => (m ? fillersCounted(m) : undefined)
  const scores: Row[] = [
    { label: 'Score', then: then.feedback.overallScore, now: f.overallScore, digits: 0, better: 'higher' },
    { label: 'Overall impression', then: then.feedback.sectionScores.overallImpression, now: f.sectionScores.overallImpression, digits: 0, better: 'higher' },
    { label: 'Clarity & structure', then: then.feedback.sectionScores.clarityStructure, now: f.sectionScores.clarityStructure, digits: 0, better: 'higher' },
    { label: 'Content', then: then.feedback.sectionScores.content, now: f.contentUnjudged ? undefined : f.sectionScores.content, digits: 0, better: 'higher' },
  ]
  // A typed answer has no delivery to compare, even with a spoken one.
  if (!now.metrics) return scores
  return [
    ...scores,
    { label: 'Words per minute', then: then.metrics?.wordsPerMinute, now: now.metrics.wordsPerMinute, digits: 0, better: 'neither' },
    { label: 'Fillers', then: fillers(then.metrics), now: fillers(now.metrics), digits: 0, better: 'lower' },
    { label: 'Longest pause (s)', then: pauses(then.metrics), now: pauses(now.metrics), digits: 1, better: 'lower' },
  ]
}

function change(row: Row): string {
  if (row.then === undefined || row.now === undefined) return '—'
  const delta = Number((row.now - row.then).toFixed(row.digits))
  if (delta === 0) return 'same'
  return `${delta > 0 ? '+' : '−'}${Math.abs(delta).toFixed(row.digits)}`
}

function changeClass(row: Row): string {
  if (row.then === undefined || row.now === undefined || row.now === row.then || row.better === 'neither') return 'text-muted-foreground'
  const improved = row.better === 'lower' ? row.now < row.then : row.now > row.then
  return improved ? 'font-semibold text-primary' : 'font-semibold text-destructive'
}

const fmt = (value: number | undefined, digits: number) => (value === undefined ? '—' : value.toFixed(digits))
const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' })

/**
 * The same question answered before: how each score and delivery figure
 * moved since the chosen earlier answer, and which words changed.
 */
export function EarlierAttempts({ attempts, entry }: { attempts: Attempt[]; entry: Answer }) {
  const [chosen, setChosen] = useState(0)
  const headingId = useId()
  const selectId = useId()
  const then = attempts[chosen] ?? attempts[0]!
  const diff = wordDiff(then.transcript, entry.transcript ?? '')
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-3 rounded-md border border-border p-3">
      <h3 id={headingId} className="text-sm font-semibold">
        You answered this question before
      </h3>
      {attempts.length > 1 ? (
        <div className="grid gap-1 text-sm sm:flex sm:items-center sm:gap-2">
          <label htmlFor={selectId}>Compare with</label>
          <select
            id={selectId}
            value={chosen}
            onChange={(e) => setChosen(Number(e.target.value))}
            className="h-9 rounded-md border border-input bg-background px-2 text-sm"
          >
            {attempts.map((a, i) => (
              <option key={`${a.sessionId}-${i}`} value={i}>
                {day(a.answeredAt)} · score {a.feedback.overallScore}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <table className="w-full text-sm tabular-nums">
        <caption className="text-left text-muted-foreground">Since your answer of {day(then.answeredAt)}</caption>
        <thead>
          <tr className="text-left text-xs text-muted-foreground">
            <th scope="col" className="py-1 font-medium">
              Measure
            </th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">
              Then
            </th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">
              Now
            </th>
            <th scope="col" className="py-1 pl-3 text-right font-medium">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {rows(then, entry).map((row) => (
            <tr key={row.label} className="border-t border-border">
              <th scope="row" className="py-1 text-left font-normal">
                {row.label}
              </th>
              <td className="py-1 pl-3 text-right">{fmt(row.then, row.digits)}</td>
              <td className="py-1 pl-3 text-right">{fmt(row.now, row.digits)}</td>
              <td className={`py-1 pl-3 text-right ${changeClass(row)}`}>{change(row)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Disclosure label="What you said differently" className="text-sm">
        <p className="mt-1 text-muted-foreground">Struck-through words were only in the earlier answer; underlined words are new.</p>
        <p className="mt-2 leading-relaxed">
          {diff.map((part, i) =>
            part.kind === 'same' ? (
              <span key={i}>{part.text} </span>
            ) : part.kind === 'removed' ? (
              <del key={i} className="bg-destructive/10 text-destructive">
                <span className="sr-only">(removed: </span>
                {part.text}
                <span className="sr-only">)</span>{' '}
              </del>
            ) : (
              <ins key={i} className="bg-primary/10 text-primary underline">
                <span className="sr-only">(added: </span>
                {part.text}
                <span className="sr-only">)</span>{' '}
              </ins>
            ),
          )}
        </p>
      </Disclosure>
    </div>
  )
}

/**
 * The earlier answers to a practice session's questions, asked for once its
 * answers are settled: `children` draws the answers, each with its own
 * comparison (none where the question was not answered before).
 */
export function WithEarlierAttempts({ sessionId, settled, children }: EarlierAnswersProps) {
  const earlier = useEarlierAttempts(sessionId, settled)
  return children((itemId, answer) => {
    const attempts = earlier.get(itemId)
    return attempts?.length ? <EarlierAttempts attempts={attempts} entry={answer} /> : undefined
  })
}
