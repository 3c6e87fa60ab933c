import { useId, type ComponentProps } from 'react'
import { Input } from './input'
import { Label } from './label'

/** A labelled input with an optional hint, stacked. */
export function FormField({ label, hint, id, ...props }: ComponentProps<typeof Input> & { label: string; hint?: string }) {
  const autoId = useId()
  const inputId = id ?? autoId
  const hintId = hint ? `${inputId}-hint` : undefined
  return (
    <div className="grid gap-2">
      <Label htmlFor={inputId}>{label}</Label>
      <Input id={inputId} aria-describedby={hintId} {...props} />
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
    </div>
  )
}
