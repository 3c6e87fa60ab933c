import { useProfession } from '@/features/professions/api/get-professions'

/**
 * The profession being practised, by its display name (the slug until the
 * list loads), with what else keeps the student oriented (e.g. the mode).
 */
export function ProfessionTag({ slug, detail }: { slug: string; detail?: string }) {
  const { profession } = useProfession(slug)
  return (
    <p className="text-sm font-semibold uppercase tracking-wide text-primary">
      {profession?.displayName ?? slug} interview
      {detail ? <span className="font-medium text-muted-foreground"> · {detail}</span> : null}
    </p>
  )
}
