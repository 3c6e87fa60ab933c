import { useId, type FormEvent } from 'react'
import type { components } from '@/api/schema'
import { Button } from '@/components/ui/button'
import { DialogFooter } from '@/components/ui/dialog'
import { Label } from '@/components/ui/label'
import { Select } from '@/components/ui/select'
import { Textarea } from '@/components/ui/textarea'
import { limits } from '@/api/limits'
import { BIG3_ORDERS, followUpLines, SUBTAGS, type QuestionValues } from '../utils/question-form'
import { FormError } from './form-error'
import { PointsEditor } from './points-editor'

/** A profession the question can be tagged with; the route passes the API's list. */
export type ProfessionOption = Pick<components['schemas']['Profession'], 'slug' | 'displayName'>

/** A question's professions by name ("Dental, Pharmacy"); an unknown slug shows as itself. */
export function professionNames(tags: readonly string[], professions: ProfessionOption[]): string {
  return tags.map((slug) => professions.find((p) => p.slug === slug)?.displayName ?? slug).join(', ')
}

const checkboxClass = 'size-4 accent-primary'
const SCENARIO_MAX = limits.adminCreateQuestion.body.scenario.maxLength
const FOLLOW_UPS_MAX = limits.adminCreateQuestion.body.followUps.maxItems
const POINTS = limits.adminCreateQuestion.body.points
const TRAPS = limits.adminCreateQuestion.body.traps

/** A form's error: the spec's headline, and the server's own reason when it differs. */
export interface EditorError {
  message: string
  detail?: string
}

/** The question form shared by add and edit: every field, the error, Cancel and submit. */
export function QuestionEditor({
  values,
  onChange,
  professions,
  error,
  pending,
  submitLabel,
  pendingLabel,
  onSubmit,
  onCancel,
}: {
  values: QuestionValues
  onChange: (values: QuestionValues) => void
  professions: ProfessionOption[]
  error: EditorError | null
  pending: boolean
  submitLabel: string
  pendingLabel: string
  onSubmit: () => void
  onCancel: () => void
}) {
  const id = useId()
  const set = (patch: Partial<QuestionValues>) => onChange({ ...values, ...patch })
  const toggleTag = (slug: string, on: boolean) =>
    set({ mainTags: on ? [...values.mainTags, slug] : values.mainTags.filter((t) => t !== slug) })

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (!pending) onSubmit()
  }

  return (
    // noValidate: the spec's own messages say what is missing, not the browser's.
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={`${id}-scenario`}>Scenario (optional)</Label>
        <Textarea
          id={`${id}-scenario`}
          value={values.scenario}
          onChange={(e) => set({ scenario: e.target.value })}
          maxLength={SCENARIO_MAX}
          aria-describedby={`${id}-scenario-hint`}
        />
        <p id={`${id}-scenario-hint`} className="text-sm text-muted-foreground">
          With a scenario the question is a station, drawn for MMI and Casper-style sessions only.
        </p>
      </div>

      <div className="grid gap-2">
        <Label htmlFor={`${id}-text`}>{values.scenario.trim() ? 'Station prompt' : 'Question'}</Label>
        <Textarea id={`${id}-text`} value={values.text} onChange={(e) => set({ text: e.target.value })} />
      </div>

      {values.scenario.trim() ? (
        <div className="grid gap-2">
          <Label htmlFor={`${id}-followups`}>Follow-up prompts (one per line)</Label>
          <Textarea
            id={`${id}-followups`}
            value={values.followUps.join('\n')}
            onChange={(e) => set({ followUps: followUpLines(e.target.value) })}
            aria-describedby={`${id}-followups-hint`}
          />
          <p id={`${id}-followups-hint`} className="text-sm text-muted-foreground">
            Up to {FOLLOW_UPS_MAX}, asked in this order during the station; a Casper-style set asks the first as its second question.
          </p>
        </div>
      ) : null}

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Professions</legend>
        <div className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3">
          {professions.map((p) => (
            <label key={p.slug} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className={checkboxClass}
                checked={values.mainTags.includes(p.slug)}
                onChange={(e) => toggleTag(p.slug, e.target.checked)}
              />
              {p.displayName}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-2">
        <Label htmlFor={`${id}-subtag`}>Subtag (optional)</Label>
        <Select id={`${id}-subtag`} value={values.subtag} onChange={(e) => set({ subtag: e.target.value })}>
          <option value="">None</option>
          {SUBTAGS.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </Select>
      </div>

      <div className="grid gap-2">
        <Label htmlFor={`${id}-tip`}>Tip (optional)</Label>
        <Textarea id={`${id}-tip`} value={values.tip} onChange={(e) => set({ tip: e.target.value })} />
      </div>

      {values.scenario.trim() ? null : (
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className={checkboxClass}
            checked={values.big3}
            // A Big 3 question needs an order; start at 1 rather than leave it unset.
            onChange={(e) => set({ big3: e.target.checked, big3Order: e.target.checked ? values.big3Order || 1 : 0 })}
          />
          Big 3 question
        </label>
        {values.big3 ? (
          <div className="flex items-center gap-2">
            <Label htmlFor={`${id}-order`}>Big 3 order</Label>
            <Select id={`${id}-order`} className="w-20" value={values.big3Order} onChange={(e) => set({ big3Order: Number(e.target.value) })}>
              {BIG3_ORDERS.map((n) => (
                <option key={n}>{n}</option>
              ))}
            </Select>
          </div>
        ) : null}
      </div>
      )}

      <PointsEditor
        legend="Points a strong answer makes"
        hint="Most valuable first: the first one an answer misses is what the student is told to add. Without any, the question is judged by the general rubric for its kind: the structure its type asks for and the question’s own words."
        noun="Point"
        values={values.points}
        max={POINTS.maxItems}
        textMax={POINTS.items.text.maxLength}
        onChange={(points) => set({ points })}
      />
      <PointsEditor
        legend="Traps to avoid"
        hint="Wrong moves an answer to this question can make (for a scenario: deceiving, breaching confidentiality, overriding a refusal…); an answer that makes one cannot score well."
        noun="Trap"
        values={values.traps}
        max={TRAPS.maxItems}
        textMax={TRAPS.items.text.maxLength}
        onChange={(traps) => set({ traps })}
      />

      <FormError message={error?.message ?? null} detail={error?.detail} />
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </DialogFooter>
    </form>
  )
}
