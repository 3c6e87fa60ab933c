/** Figures of an answer as labelled tiles: two across on a phone, four on a wider screen. */
export function FigureTiles({ rows }: { rows: readonly (readonly [term: string, value: string])[] }) {
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
      {rows.map(([term, value]) => (
        <div key={term} className="rounded-md bg-muted p-2">
          <dt className="text-xs text-muted-foreground">{term}</dt>
          <dd className="font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  )
}
