import { useId } from 'react'
import { Label } from '@/components/ui/label'
import { Textarea } from '@/components/ui/textarea'

/** A station's scenario, as the candidate reads it before and during the station. */
export function Scenario({ text }: { text: string }) {
  return (
    <div className="grid gap-1 rounded-md border border-border bg-card p-4">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">Scenario</h2>
      <p className="whitespace-pre-line leading-relaxed">{text}</p>
    </div>
  )
}

/**
 * The notes pad of an MMI station: written while reading, kept in view during
 * the answer, and never sent anywhere (like the paper a candidate leaves at the door).
 */
export function NotesPad({ id, value, onChange }: { id: string; value: string; onChange: (text: string) => void }) {
  return (
    <div className="grid gap-1">
      <Label htmlFor={id}>Your notes</Label>
      <Textarea id={id} value={value} onChange={(e) => onChange(e.target.value)} rows={4} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        For you only: notes are not saved or scored.
      </p>
    </div>
  )
}

/** The follow-up prompts an interviewer has asked so far. */
export function FollowUps({ prompts }: { prompts: readonly string[] }) {
  const id = useId()
  if (prompts.length === 0) return null
  return (
    <div className="grid gap-2 rounded-md border-l-4 border-primary bg-accent p-4">
      <h2 id={id} className="text-sm font-semibold">
        The interviewer asks
      </h2>
      <ol aria-labelledby={id} className="grid list-decimal gap-1 pl-5">
        {prompts.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ol>
    </div>
  )
}
