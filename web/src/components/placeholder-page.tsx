import type { ReactNode } from 'react'

/** A simple page for screens that later issues fill in. */
export function PlaceholderPage({ title, children, docTitle }: { title: string; children?: ReactNode; docTitle?: string }) {
  return (
    <div className="mx-auto grid max-w-3xl gap-4 px-4 py-12">
      <title>{`${docTitle ?? title} · Whitecoat`}</title>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      {children}
    </div>
  )
}
