import { Link } from 'react-router'
import { PlaceholderPage } from '@/components/placeholder-page'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import { CONTACT_EMAIL, SUPPORT_EMAIL } from '@/lib/site'

const linkClass = 'font-medium text-primary underline-offset-4 hover:underline'

const GUIDES = [
  { path: 'ethics', title: 'Ethical Frameworks Cheat Sheet' },
  { path: 'communication', title: 'STAR / SPIKES Communication' },
  { path: 'pitfalls', title: 'Common Pitfalls & How to Avoid Them' },
] as const

export function ResourcesRoute() {
  const slug = useProfessionSlug()
  return (
    <PlaceholderPage title="Resources">
      <p className="text-muted-foreground">Curated guides, templates and tools to help you prepare for interview day.</p>
      <h2 className="mt-4 text-xl font-semibold">Guides</h2>
      <ul className="grid gap-2">
        {GUIDES.map((g) => (
          <li key={g.path}>
            <Link to={`/${slug}/resources/${g.path}`} className={linkClass}>
              {g.title}
            </Link>
          </li>
        ))}
      </ul>
    </PlaceholderPage>
  )
}

export function GuideRoute({ guide }: { guide: (typeof GUIDES)[number]['path'] }) {
  const slug = useProfessionSlug()
  const title = GUIDES.find((g) => g.path === guide)?.title ?? 'Guide'
  return (
    <PlaceholderPage title={title}>
      <p className="text-muted-foreground">This guide is coming soon.</p>
      <Link to={`/${slug}/resources`} className={linkClass}>
        Back to Resources
      </Link>
    </PlaceholderPage>
  )
}

export function AboutRoute() {
  return (
    <PlaceholderPage title="About">
      <p className="text-muted-foreground">
        Whitecoat was built by a dental student who wanted a better way to practise interviews. Questions?{' '}
        <a href={`mailto:${CONTACT_EMAIL}`} className={linkClass}>
          {CONTACT_EMAIL}
        </a>
      </p>
    </PlaceholderPage>
  )
}

export function PrivacyRoute() {
  return (
    <PlaceholderPage title="Privacy Policy">
      <p className="text-muted-foreground">Effective September 7, 2025.</p>
    </PlaceholderPage>
  )
}

export function TermsRoute() {
  return (
    <PlaceholderPage title="Terms of Service">
      <p className="text-muted-foreground">Effective September 7, 2025.</p>
      <h2 className="mt-4 text-xl font-semibold">Refunds</h2>
      <p className="text-muted-foreground">
        A Premium pass is a one-time payment for one year and does not renew. Write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className={linkClass}>
          {SUPPORT_EMAIL}
        </a>{' '}
        within 7 days of your purchase for a full refund; your Premium access ends when the refund is made.
      </p>
    </PlaceholderPage>
  )
}
