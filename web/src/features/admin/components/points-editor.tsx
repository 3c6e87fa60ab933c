import { useId } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import type { PointValues } from '../utils/question-form'

/**
 * The points a strong answer to the question makes, or the traps it must
 * avoid (issue 40): each a text and the phrases that show it, in order,
 * added and removed row by row.
 */
export function PointsEditor({
  legend,
  hint,
  noun,
  values,
  max,
  textMax,
  onChange,
}: {
  legend: string
  hint: string
  /** "Point" or "Trap": names each row's fields and the add button. */
  noun: string
  values: PointValues[]
  max: number
  textMax: number
  onChange: (values: PointValues[]) => void
}) {
  const id = useId()
  const update = (i: number, patch: Partial<PointValues>) => onChange(values.map((v, j) => (j === i ? { ...v, ...patch } : v)))
  return (
    <fieldset className="grid gap-3" aria-describedby={`${id}-hint`}>
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {hint}
      </p>
      {values.map((v, i) => (
        <div key={i} className="grid gap-2 rounded-md border border-border p-3">
          <Label htmlFor={`${id}-${i}-text`}>
            {noun} {i + 1}
          </Label>
          <Input id={`${id}-${i}-text`} value={v.text} maxLength={textMax} onChange={(e) => update(i, { text: e.target.value })} />
          <Label htmlFor={`${id}-${i}-cues`} className="font-normal">
            {noun} {i + 1}: phrases that show it, separated by semicolons
          </Label>
          <Input id={`${id}-${i}-cues`} value={v.cues} onChange={(e) => update(i, { cues: e.target.value })} />
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => onChange(values.filter((_, j) => j !== i))}>
            Remove {noun.toLowerCase()} {i + 1}
          </Button>
        </div>
      ))}
      <Button type="button" variant="outline" size="sm" className="justify-self-start" disabled={values.length >= max} onClick={() => onChange([...values, { text: '', cues: '' }])}>
        Add a {noun.toLowerCase()}
      </Button>
    </fieldset>
  )
}
