import { useState, type FormEvent, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { limits } from '@/api/limits'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { Label } from '@/components/ui/label'
import { Select } from '@/components/ui/select'
import { errorMessage } from '@/lib/api-client'
import type { ProfessionSlug } from '@/lib/professions'
import { useCreatePracticeSession, type CreatePracticeSessionInput } from '../api/create-practice-session'
import { useFormats, type Timings } from '../api/get-formats'
import { FORMAT_TEXT, formatDuration, type Format } from '@/lib/formats'
import { CustomQuestionBuilder } from './custom-question-builder'
import { HearingChoice } from './hearing-choice'
import type { ProfessionNames } from '@/components/profession-tag'

type InterviewType = CreatePracticeSessionInput['interviewType']
type Mode = CreatePracticeSessionInput['mode']
/** A kind of question a random interview asks first ("" for any). */
export type Focus = NonNullable<CreatePracticeSessionInput['focus']>

const FOCUSES = limits.createPracticeSession.body.focus.enum.filter((f) => f !== '')

/** The focus a link asked for (a guide's practice button), if it is one. */
export function parseFocus(value: string | null): Focus {
  return FOCUSES.find((f) => f === value) ?? ''
}

const DEFAULT_COUNT = 5
const QUESTION_COUNT = limits.createPracticeSession.body.questionCount
const TIMING = limits.createPracticeSession.body.timings
type Extension = NonNullable<CreatePracticeSessionInput['extension']>

const EXTENSION_TEXT: Record<Extension, string> = {
  '1': 'Standard time',
  '1.25': '1.25 × every limit',
  '1.5': '1.5 × every limit',
  '2': '2 × every limit',
  off: 'Untimed practice (no clock runs down)',
}
const EXTENSIONS = limits.createPracticeSession.body.extension.enum

/** A whole number of seconds typed into a field, kept within its bounds. */
function seconds(value: string, bounds: { minimum: number; maximum: number }, fallback: number): number {
  const n = Math.round(Number(value))
  if (value.trim() === '' || !Number.isFinite(n)) return fallback
  return Math.min(bounds.maximum, Math.max(bounds.minimum, n))
}

const INTERVIEW_TYPES: Option<InterviewType>[] = [
  { value: 'random', label: 'Random', hint: 'Questions drawn from the bank for this profession.' },
  { value: 'custom', label: 'Custom', hint: 'Write your own or pick from the bank.' },
]

const MODES: Option<Mode>[] = [
  { value: 'video', label: 'Video', hint: 'Camera and microphone; replay yourself afterwards.' },
  { value: 'audio', label: 'Audio', hint: 'Microphone only.' },
]

const FORMATS: Option<Format>[] = limits.createPracticeSession.body.format.enum.map((f) => ({ value: f, label: FORMAT_TEXT[f].label, hint: FORMAT_TEXT[f].hint }))

/** The longest an untimed recording runs: the largest answer limit at the largest extension. */
const UNTIMED_CEILING = TIMING.answerSeconds.maximum * Math.max(...EXTENSIONS.filter((x) => x !== 'off').map(Number))

/** The format's own timings, in words. */
function presetSummary(format: Format, t: Timings): string {
  const parts: string[] = []
  if (t.prepSeconds > 0) parts.push(`${formatDuration(t.prepSeconds)} to ${format === 'kira' ? 'prepare' : 'read'}`)
  parts.push(`${formatDuration(t.answerSeconds)} per ${format === 'casper' ? 'spoken question' : 'answer'}`)
  if (t.typedSeconds) parts.push(`${formatDuration(t.typedSeconds)} to type both answers`)
  return `${FORMAT_TEXT[format].label}: ${parts.join(', ')}.`
}

interface Option<T extends string> {
  value: T
  label: string
  hint: string
}

function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
}: {
  legend: string
  name: string
  value: T
  options: Option<T>[]
  onChange: (v: T) => void
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 text-sm font-semibold">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => (
          <label
            key={o.value}
            className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent"
          >
            <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} className="mt-1" />
            <span>
              <span className="block font-medium">{o.label}</span>
              <span className="block text-sm text-muted-foreground">{o.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{title}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  )
}

/**
 * The session setup (spec §2 Setup). The server creates the session and, for
 * a random interview, chooses its questions; the browser only sends the config.
 */
export function SetupForm({ slug, nameOf, initialFocus = '' }: { slug: ProfessionSlug; nameOf: ProfessionNames; initialFocus?: Focus }) {
  const navigate = useNavigate()
  const create = useCreatePracticeSession()
  const [interviewType, setInterviewType] = useState<InterviewType>('random')
  const [mode, setMode] = useState<Mode>('video')
  const [count, setCount] = useState(String(DEFAULT_COUNT))
  const [focus, setFocus] = useState<Focus>(initialFocus)
  // Arriving from a guide means practising its kind of question, not the Big 3.
  const [big3, setBig3] = useState(initialFocus === '')
  const [custom, setCustom] = useState<readonly string[]>([])
  const presets = useFormats()
  const [format, setFormat] = useState<Format>('traditional')
  const preset = presets.data?.find((p) => p.format === format)
  // What the student typed over the format's timings; a field not typed in shows the preset.
  const [edits, setEdits] = useState<Partial<Record<'prep' | 'answer' | 'typed', string>>>({})
  const timing = {
    prep: edits.prep ?? String(preset?.timings.prepSeconds ?? ''),
    answer: edits.answer ?? String(preset?.timings.answerSeconds ?? ''),
    typed: edits.typed ?? String(preset?.timings.typedSeconds ?? ''),
  }
  const [extension, setExtension] = useState<Extension>('1')

  const stations = format === 'mmi' || format === 'casper'
  const isCustom = interviewType === 'custom' && !stations
  const ready = (isCustom ? custom.length > 0 : true) && preset !== undefined

  function chooseFormat(next: Format) {
    setFormat(next)
    setEdits({})
    const p = presets.data?.find((x) => x.format === next)
    if (p) setCount(String(p.count))
  }

  function timings(): Timings | undefined {
    if (!preset) return undefined
    const t = preset.timings
    return {
      prepSeconds: seconds(timing.prep, TIMING.prepSeconds, t.prepSeconds),
      answerSeconds: seconds(timing.answer, TIMING.answerSeconds, t.answerSeconds),
      ...(format === 'casper' ? { typedSeconds: seconds(timing.typed, TIMING.typedSeconds, t.typedSeconds ?? 0) } : {}),
    }
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    const shape = { profession: slug, mode, format, extension, timings: timings() }
    const input: CreatePracticeSessionInput = isCustom
      ? { ...shape, interviewType: 'custom', big3: false, questionCount: custom.length, questions: custom.map((text) => ({ text })) }
      : {
          ...shape,
          interviewType: 'random',
          big3: big3 && !stations,
          ...(focus ? { focus } : {}),
          questionCount: Math.min(QUESTION_COUNT.maximum, Math.max(QUESTION_COUNT.minimum, Number(count) || (preset?.count ?? DEFAULT_COUNT))),
        }
    create.mutate(input, {
      onSuccess: (session) => void navigate(`/${slug}/session?id=${encodeURIComponent(session.id)}`),
    })
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-6">
      <Section title="Interview">
        <Choice legend="Format" name="format" value={format} onChange={chooseFormat} options={FORMATS} />
        {stations ? (
          <p className="text-sm text-muted-foreground">The scenarios are drawn for you from the question bank’s stations for this profession.</p>
        ) : (
          <Choice legend="Interview type" name="interviewType" value={interviewType} onChange={setInterviewType} options={INTERVIEW_TYPES} />
        )}
        <Choice legend="Recording mode" name="mode" value={mode} onChange={setMode} options={MODES} />
      </Section>

      <Section title="Timing">
        {preset ? (
          <>
            <p className="text-sm text-muted-foreground">{presetSummary(format, preset.timings)} Change any of them for this session.</p>
            <div className="grid gap-4 sm:grid-cols-3">
              <FormField
                label={stations ? 'Reading time (seconds)' : 'Preparation time (seconds)'}
                type="number"
                min={TIMING.prepSeconds.minimum}
                max={TIMING.prepSeconds.maximum}
                value={timing.prep}
                onChange={(e) => setEdits({ ...edits, prep: e.target.value })}
                hint={`0 for none, up to ${TIMING.prepSeconds.maximum}.`}
              />
              <FormField
                label={format === 'casper' ? 'Time per spoken question (seconds)' : 'Answer time (seconds)'}
                type="number"
                min={TIMING.answerSeconds.minimum}
                max={TIMING.answerSeconds.maximum}
                value={timing.answer}
                onChange={(e) => setEdits({ ...edits, answer: e.target.value })}
                hint={`Between ${TIMING.answerSeconds.minimum} and ${TIMING.answerSeconds.maximum}.`}
              />
              {format === 'casper' ? (
                <FormField
                  label="Typing time for both questions (seconds)"
                  type="number"
                  min={TIMING.typedSeconds.minimum}
                  max={TIMING.typedSeconds.maximum}
                  value={timing.typed}
                  onChange={(e) => setEdits({ ...edits, typed: e.target.value })}
                  hint={`Between ${TIMING.typedSeconds.minimum} and ${TIMING.typedSeconds.maximum}.`}
                />
              ) : null}
            </div>
            <div className="grid gap-2">
              <Label htmlFor="setup-extension">Extra time</Label>
              <Select
                id="setup-extension"
                value={extension}
                onChange={(e) => setExtension(EXTENSIONS.find((x) => x === e.target.value) ?? '1')}
                aria-describedby="setup-extension-hint"
                className="max-w-72"
              >
                {EXTENSIONS.map((x) => (
                  <option key={x} value={x}>
                    {EXTENSION_TEXT[x]}
                  </option>
                ))}
              </Select>
              <p id="setup-extension-hint" className="text-sm text-muted-foreground">
                The accommodations admissions tests grant: every limit grows, or no clock runs down (a recording still stops at {formatDuration(UNTIMED_CEILING)}).
              </p>
            </div>
          </>
        ) : (
          <FormStatus status={presets.isPending ? 'Loading the formats…' : null} error={presets.isError ? errorMessage(presets.error) : null} />
        )}
      </Section>

      {isCustom ? (
        <Section title="Custom questions">
          <CustomQuestionBuilder questions={custom} onChange={setCustom} slug={slug} nameOf={nameOf} />
        </Section>
      ) : (
        <Section title="Questions">
          <FormField
            label={FORMAT_TEXT[format].count}
            type="number"
            min={QUESTION_COUNT.minimum}
            max={QUESTION_COUNT.maximum}
            value={count}
            onChange={(e) => setCount(e.target.value)}
            hint={`Between ${QUESTION_COUNT.minimum} and ${QUESTION_COUNT.maximum}.`}
            className="max-w-32"
          />
          <div className="grid gap-2">
            <Label htmlFor="setup-focus">Question focus</Label>
            <Select id="setup-focus" value={focus} onChange={(e) => setFocus(parseFocus(e.target.value))} aria-describedby="setup-focus-hint" className="max-w-64">
              <option value="">Any kind of question</option>
              {FOCUSES.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </Select>
            <p id="setup-focus-hint" className="text-sm text-muted-foreground">
              {stations ? 'Stations of this kind come first.' : 'Questions of this kind come first, after the Big 3 if you start with them.'}
            </p>
          </div>
          {stations ? null : (
          <label className="flex items-start gap-3">
            <input type="checkbox" checked={big3} onChange={(e) => setBig3(e.target.checked)} className="mt-1" />
            <span>
              <span className="block font-medium">Start with the Big 3</span>
              <span className="block text-sm text-muted-foreground">“Tell me about yourself”, “Why this profession” and “Why our school” come first.</span>
            </span>
          </label>
          )}
        </Section>
      )}

      <Section title="How you are heard">
        <HearingChoice idPrefix="setup" video={mode === 'video'} />
      </Section>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Button asChild variant="outline">
          <Link to={`/${slug}/dashboard`}>Back to Dashboard</Link>
        </Button>
        <Button type="submit" size="lg" disabled={!ready || create.isPending}>
          Start Interview
        </Button>
      </div>
      <FormStatus status={create.isPending ? 'Preparing your questions...' : null} error={create.isError ? errorMessage(create.error) : null} />
    </form>
  )
}
