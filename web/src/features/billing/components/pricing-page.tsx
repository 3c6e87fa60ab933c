import { Check, ChevronDown } from 'lucide-react'
import { AuthPending } from '@/components/auth-pending'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import type { ProfessionSlug } from '@/lib/professions'
import type { components } from '@/api/schema'
import { PageStatus } from '@/components/ui/page-status'
import { SimulatedPaymentsNotice } from './simulated-payments-notice'
import { UpgradeButton } from './upgrade-button'

/**
 * Who is looking at the pricing page, which decides where its buttons lead:
 * signed out (to sign-up); not known yet (a prerendered page before its app
 * asks: the signed-out buttons, held unseen when the server saw a session
 * cookie, as the header's are); on the free trial and free to practise
 * (practice, or Premium now); locked (Premium, and the reason the Free plan
 * no longer leads to practice); or able to practise with nothing to buy
 * (Premium held, or the access not known yet).
 */
export type Visitor = { kind: 'signed-out' } | { kind: 'unknown' } | { kind: 'has-access' } | { kind: 'trial' } | { kind: 'locked'; reason: string }

const MOCK_SUBJECT = '1:1 mock interview request'

/** A mailto link for requesting a mock interview, once the address is known. */
export function mockInterviewMailto(supportEmail: string) {
  return `mailto:${supportEmail}?subject=${encodeURIComponent(MOCK_SUBJECT)}`
}

type Facts = components['schemas']['Facts']
type FaqItem = components['schemas']['FAQItem']

function freeFeatures(f: Facts) {
  return [`A ${f.trialDays}-day free trial`, `${f.freeSessions} practice interviews with feedback`, 'Every profession and the Big 3 questions']
}
const PREMIUM = [
  'One year of unlimited practice interviews',
  'Feedback and scores on every answer',
  'Your saved sessions and progress for the whole year',
  'One-time payment: it never renews by itself',
]
const MOCK = ['60 minutes with an interviewer, by video call', 'Questions for your profession and your schools', 'Written notes afterwards']

function Features({ items }: { items: string[] }) {
  return (
    <ul className="grid gap-2 text-sm">
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  )
}

function Plan({ name, price, per, children, action, highlight }: { name: string; price: string; per: string; children: ReactNode; action: ReactNode; highlight?: boolean }) {
  return (
    <Card className={highlight ? 'flex flex-col border-2 border-primary' : 'flex flex-col'}>
      <CardHeader>
        <h2 className="text-xl font-semibold leading-tight">{name}</h2>
        <p>
          <span className="text-4xl font-bold tracking-tight">{price}</span> <span className="text-muted-foreground">{per}</span>
        </p>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col justify-between gap-6">
        {children}
        {action}
      </CardContent>
    </Card>
  )
}

/**
 * Spec §2 Pricing: three plans and the questions people ask before buying.
 * The numbers and the questions come from the server (the constants it
 * enforces and content/pages/pricing.md); the plans wait for them.
 */
export function PricingPage({ visitor, slug, facts, faq }: { visitor: Visitor; slug: ProfessionSlug; facts?: Facts; faq?: FaqItem[] }) {
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12">
      <title>Pricing · Whitecoat</title>
      <div className="grid gap-2 text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Pricing</h1>
        <p className="text-muted-foreground">Start free. Pay once for a year of practice. No subscription.</p>
      </div>
      <SimulatedPaymentsNotice />
      {facts ? <Plans visitor={visitor} slug={slug} facts={facts} /> : <PageStatus className="min-h-64">Loading...</PageStatus>}
      {faq ? <Faq items={faq} /> : null}
    </div>
  )
}

function LinkButton({ to, label, variant }: { to: string; label: string; variant?: 'outline' }) {
  return (
    <Button asChild variant={variant} className="w-full">
      <Link to={to}>{label}</Link>
    </Button>
  )
}

function Plans({ visitor, slug, facts }: { visitor: Visitor; slug: ProfessionSlug; facts: Facts }) {
  const setup = `/${slug}/setup`
  let freeAction: ReactNode
  let premiumAction: ReactNode
  switch (visitor.kind) {
    case 'signed-out':
    case 'unknown': {
      const pending = visitor.kind === 'unknown'
      freeAction = (
        <AuthPending pending={pending}>
          <LinkButton to="/signup" label="Start free trial" variant="outline" />
        </AuthPending>
      )
      premiumAction = (
        <AuthPending pending={pending}>
          <LinkButton to="/signup" label="Get Premium" />
        </AuthPending>
      )
      break
    }
    case 'has-access':
      freeAction = <LinkButton to={setup} label="Start practice" variant="outline" />
      premiumAction = <LinkButton to={setup} label="Start practice" />
      break
    case 'trial':
      freeAction = <LinkButton to={setup} label="Start practice" variant="outline" />
      premiumAction = <UpgradeButton slug={slug} label="Upgrade" className="w-full" />
      break
    case 'locked':
      freeAction = <p className="rounded-md bg-muted p-3 text-sm text-muted-foreground">{visitor.reason}</p>
      premiumAction = <UpgradeButton slug={slug} label="Upgrade" className="w-full" />
      break
  }
  return (
    <div className="grid gap-6 md:grid-cols-3">
      <Plan name="Free" price="$0" per={`for ${facts.trialDays} days`} action={freeAction}>
        <Features items={freeFeatures(facts)} />
      </Plan>
      <Plan name="Premium" price={facts.passPriceShort} per="one-time, for one year" action={premiumAction} highlight>
        <Features items={PREMIUM} />
      </Plan>
      <Plan
        name="1:1 mock interview"
        price="$75"
        per="per hour (60 minutes)"
        action={
          <Button asChild variant="outline" className="w-full">
            <a href={mockInterviewMailto(facts.supportEmail)}>Request by email</a>
          </Button>
        }
      >
        <Features items={MOCK} />
      </Plan>
    </div>
  )
}

/**
 * The questions from content/pages/pricing.md, each a disclosure: a native
 * details element (opened by click, Enter or Space, and without
 * JavaScript), drawn as a card with our chevron instead of the browser's
 * triangle.
 */
function Faq({ items }: { items: FaqItem[] }) {
  return (
    <section aria-labelledby="faq" className="mx-auto grid w-full max-w-3xl gap-3">
      <h2 id="faq" className="text-2xl font-semibold">
        Frequently asked questions
      </h2>
      {items.map((f) => (
        <details key={f.question} className="group rounded-xl border border-border bg-background shadow-sm">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl p-4 font-semibold hover:bg-muted focus-visible:outline-3 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
            {f.question}
            <ChevronDown aria-hidden="true" className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" />
          </summary>
          {/* Trusted: rendered on the server from the repository's Markdown. */}
          <div className="article px-4 pb-4 text-sm leading-relaxed text-muted-foreground" dangerouslySetInnerHTML={{ __html: f.answerHtml }} />
        </details>
      ))}
    </section>
  )
}
