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
import { CustomQuestionBuilder } from './custom-question-builder'
import type { ProfessionNames } from './profession-tag'

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

const INTERVIEW_TYPES: Option<InterviewType>[] = [
  { value: 'random', label: 'Random', hint: 'Questions drawn from the bank for this profession.' },
  { value: 'custom', label: 'Custom', hint: 'Write your own or pick from the bank.' },
]

const MODES: Option<Mode>[] = [
  { value: 'video', label: 'Video', hint: 'Camera and microphone; replay yourself afterwards.' },
  { value: 'audio', label: 'Audio', hint: 'Microphone only.' },
]

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
        <CardTitle>{title}</CardTitle>
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

  const isCustom = interviewType === 'custom'
  const ready = isCustom ? custom.length > 0 : true

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    const input: CreatePracticeSessionInput = isCustom
      ? { profession: slug, mode, interviewType, big3: false, questionCount: custom.length, questions: custom.map((text) => ({ text })) }
      : { profession: slug, mode, interviewType, big3, ...(focus ? { focus } : {}), questionCount: Math.min(QUESTION_COUNT.maximum, Math.max(QUESTION_COUNT.minimum, Number(count) || DEFAULT_COUNT)) }
    create.mutate(input, {
      onSuccess: (session) => void navigate(`/${slug}/session?id=${encodeURIComponent(session.id)}`),
    })
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-6">
      <Section title="Interview">
        <Choice legend="Interview type" name="interviewType" value={interviewType} onChange={setInterviewType} options={INTERVIEW_TYPES} />
        <Choice legend="Recording mode" name="mode" value={mode} onChange={setMode} options={MODES} />
      </Section>

      {isCustom ? (
        <Section title="Custom questions">
          <CustomQuestionBuilder questions={custom} onChange={setCustom} slug={slug} nameOf={nameOf} />
        </Section>
      ) : (
        <Section title="Questions">
          <FormField
            label="Number of questions"
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
              Questions of this kind come first, after the Big 3 if you start with them.
            </p>
          </div>
          <label className="flex items-start gap-3">
            <input type="checkbox" checked={big3} onChange={(e) => setBig3(e.target.checked)} className="mt-1" />
            <span>
              <span className="block font-medium">Start with the Big 3</span>
              <span className="block text-sm text-muted-foreground">“Tell me about yourself”, “Why this profession” and “Why our school” come first.</span>
            </span>
          </label>
        </Section>
      )}

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
