/** The profession being practised, by its display name, with what else keeps the student oriented (e.g. the mode). */
export function ProfessionTag({ name, detail }: { name: string; detail?: string }) {
  return (
    <p className="text-sm font-semibold uppercase tracking-wide text-primary">
      {name} interview
      {detail ? <span className="font-medium text-muted-foreground"> · {detail}</span> : null}
    </p>
  )
}

/** A profession's display name by slug (the slug itself until the list loads); given by the route. */
export type ProfessionNames = (slug: string) => string
