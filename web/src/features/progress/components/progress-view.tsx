import { useId, useState } from 'react'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { Select } from '@/components/ui/select'
import { Table, TableCaption, TableCell, TableHead, TableRow } from '@/components/ui/table'
import { errorMessage } from '@/lib/api-client'
import { COMPETENCY_LABEL } from '@/lib/competencies'
import { scoreVariant, SECTION_LABEL, type SectionKey } from '@/lib/score'
import { sessionTime } from '@/lib/session-time'
import { useProgress, type Progress, type Subtag, type TrendPoint } from '../api/get-progress'
import { niceMax } from '../utils/chart'
import { TrendChart } from './trend-chart'

export const LOADING_PROGRESS = 'Loading your progress…'
export const PROGRESS_LOCKED = 'Your progress is locked until you upgrade.'
export const NO_SESSIONS = 'Complete a practice session to see your progress here.'

const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })

/** The section scores in the order the summary lists them. */
const SECTIONS = Object.keys(SECTION_LABEL) as SectionKey[]

/** A delivery figure of the trends, with how it reads and why no session may have it. */
const DELIVERY = [
  { key: 'wordsPerMinute', title: 'Words per minute', unit: ' wpm', unmeasured: 'Not measured yet: it comes from recorded answers, not typed ones.' },
  {
    key: 'fillersPerMinute',
    title: 'Fillers per minute',
    unit: '',
    unmeasured: 'Not measured: the speech engine does not write down every “um” and “uh”, so an answer in which it heard none has no count.',
  },
  { key: 'longestPauseSeconds', title: 'Longest pause (seconds)', unit: ' s', unmeasured: 'Not measured yet: it needs recorded answers with word timings.' },
] as const satisfies readonly { key: keyof TrendPoint; title: string; unit: string; unmeasured: string }[]

/** Presence on camera (issue 42): shares of the time the face was in the frame, in one chart. */
const PRESENCE = [
  { key: 'eyeContactPercent', title: 'Eye contact (%)' },
  { key: 'wellFramedPercent', title: 'Well framed (%)' },
] as const satisfies readonly { key: keyof TrendPoint; title: string }[]
const PRESENCE_UNMEASURED = 'Not measured yet: it comes from video answers your browser measured on your device.'

/** A table cell's figure; a dash where the session was not measured. */
function figure(v: number | null | undefined): string {
  return v === null || v === undefined ? '—' : String(v)
}

/**
 * The student's progress in one profession: trend charts of the scores and
 * delivery figures session by session, the same figures as a table, and
 * the competency map. summaryPath is where a session's answers are read.
 */
export function ProgressView({ profession, summaryPath, setupPath }: { profession: string; summaryPath: (sessionId: string) => string; setupPath: string }) {
  const subtagId = useId()
  const [subtag, setSubtag] = useState<Subtag>('')
  const progress = useProgress(subtag ? { profession, subtag } : { profession })

  if (progress.isPending) return <PageStatus>{LOADING_PROGRESS}</PageStatus>
  if (progress.isError) return <LoadError title={errorMessage(progress.error)} onRetry={() => void progress.refetch()} />
  const data = progress.data
  if (data.locked) return <p>{PROGRESS_LOCKED}</p>
  const subtags: Subtag[] = data.subtags.includes(subtag) || subtag === '' ? data.subtags : [...data.subtags, subtag]

  return (
    <div className="grid gap-8" aria-busy={progress.isFetching}>
      <div className="grid max-w-xs gap-2">
        <Label htmlFor={subtagId}>Question type</Label>
        <Select id={subtagId} value={subtag} onChange={(e) => setSubtag(e.target.value as Subtag)}>
          <option value="">All question types</option>
          {subtags.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </div>
      {data.points.length === 0 ? (
        <p>
          {subtag ? `No completed session has a ${subtag} question yet.` : NO_SESSIONS}{' '}
          <Link to={setupPath}>Start practice</Link>
        </p>
      ) : (
        <Trends points={data.points} summaryPath={summaryPath} />
      )}
      <CompetencyMap competencies={data.competencies} summaryPath={summaryPath} />
    </div>
  )
}

function Trends({ points, summaryPath }: { points: TrendPoint[]; summaryPath: (sessionId: string) => string }) {
  const dates = points.map((p) => shortDate.format(new Date(p.at)))
  return (
    <section aria-labelledby="trends" className="grid gap-6">
      <h2 id="trends" className="text-xl font-semibold">
        Trends
      </h2>
      <p className="text-sm text-muted-foreground">
        {points.length} completed {points.length === 1 ? 'session' : 'sessions'}; each point is the mean of a session&apos;s scored answers.
      </p>
      <Card>
        <CardContent className="pt-6">
          <TrendChart
            title="Scores"
            dates={dates}
            max={100}
            unit=""
            series={[
              { label: 'Overall', values: points.map((p) => p.overallScore) },
              ...SECTIONS.map((key) => ({ label: SECTION_LABEL[key], values: points.map((p) => p.sectionScores[key]) })),
            ]}
          />
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:grid-cols-3">
        {DELIVERY.map((d) => {
          const values = points.map((p) => p[d.key] ?? null)
          return (
            <Card key={d.key}>
              <CardContent className="pt-6">
                {values.every((v) => v === null) ? (
                  <figure className="grid gap-2">
                    <figcaption className="font-semibold">{d.title}</figcaption>
                    <p className="text-sm text-muted-foreground">{d.unmeasured}</p>
                  </figure>
                ) : (
                  <TrendChart title={d.title} dates={dates} max={niceMax(values)} unit={d.unit} series={[{ label: d.title, values }]} />
                )}
              </CardContent>
            </Card>
          )
        })}
      </div>
      <Card>
        <CardContent className="pt-6">
          {points.every((p) => PRESENCE.every((d) => p[d.key] === null)) ? (
            <figure className="grid gap-2">
              <figcaption className="font-semibold">On camera</figcaption>
              <p className="text-sm text-muted-foreground">{PRESENCE_UNMEASURED}</p>
            </figure>
          ) : (
            <TrendChart
              title="On camera (% of the time your face was in the frame)"
              dates={dates}
              max={100}
              unit="%"
              series={PRESENCE.map((d) => ({ label: d.title, values: points.map((p) => p[d.key]) }))}
            />
          )}
        </CardContent>
      </Card>
      <Table label="Every session's figures">
        <TableCaption>Every session&apos;s figures, oldest first: the charts above as a table</TableCaption>
        <thead>
          <tr>
            <TableHead>Session</TableHead>
            <TableHead>Answers</TableHead>
            <TableHead>Overall</TableHead>
            {SECTIONS.map((key) => (
              <TableHead key={key}>{SECTION_LABEL[key]}</TableHead>
            ))}
            {[...DELIVERY, ...PRESENCE].map((d) => (
              <TableHead key={d.key}>{d.title}</TableHead>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <TableRow key={p.sessionId}>
              <TableCell className="whitespace-nowrap">
                <Link to={summaryPath(p.sessionId)}>{sessionTime(p.at)}</Link>
              </TableCell>
              <TableCell>{p.answers}</TableCell>
              <TableCell>{p.overallScore}</TableCell>
              {SECTIONS.map((key) => (
                <TableCell key={key}>{p.sectionScores[key]}</TableCell>
              ))}
              {[...DELIVERY, ...PRESENCE].map((d) => (
                <TableCell key={d.key}>{figure(p[d.key])}</TableCell>
              ))}
            </TableRow>
          ))}
        </tbody>
      </Table>
    </section>
  )
}

function CompetencyMap({ competencies, summaryPath }: { competencies: Progress['competencies']; summaryPath: (sessionId: string) => string }) {
  const shown = competencies.filter((c) => c.count > 0)
  const gaps = competencies.filter((c) => c.count === 0)
  return (
    <section aria-labelledby="competencies" className="grid gap-4">
      <h2 id="competencies" className="text-xl font-semibold">
        Competency map
      </h2>
      <p className="text-sm text-muted-foreground">
        The competencies admissions interviewers look for, and the answers in which the feedback found you showing them.
      </p>
      {shown.length > 0 ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {shown.map((c) => (
            <li key={c.competency}>
              <Card className="h-full">
                <CardHeader>
                  <CardTitle className="flex items-center justify-between gap-2 text-base">
                    <span>{COMPETENCY_LABEL[c.competency]}</span>
                    <Badge variant="outline" className="shrink-0 whitespace-nowrap">
                      {c.count} {c.count === 1 ? 'answer' : 'answers'}
                    </Badge>
                  </CardTitle>
                </CardHeader>
                <CardContent>
                  <ul className="grid gap-2 text-sm">
                    {c.answers.map((a) => (
                      <li key={a.itemId} className="flex items-start justify-between gap-3">
                        <Link to={summaryPath(a.sessionId)} className="min-w-0 break-words">
                          {a.question}
                        </Link>
                        <Badge variant={scoreVariant(a.overallScore)} className="shrink-0">
                          {a.overallScore}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                  {c.count > c.answers.length ? <p className="mt-2 text-sm text-muted-foreground">The {c.answers.length} most recent are listed.</p> : null}
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      ) : null}
      {gaps.length > 0 ? (
        <div className="grid gap-2">
          <h3 className="font-semibold">Not shown yet</h3>
          <p className="text-sm text-muted-foreground">Choose questions that let you show these, and say plainly what you did and why.</p>
          <ul className="flex flex-wrap gap-2">
            {gaps.map((c) => (
              <li key={c.competency}>
                <Badge variant="outline">{COMPETENCY_LABEL[c.competency]}</Badge>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}
