import { Check } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader } from '@/components/ui/card'
import type { ProfessionSlug } from '@/lib/professions'
import { SUPPORT_EMAIL } from '@/lib/site'
import { UpgradeButton } from './upgrade-button'

/** Who is looking at the pricing page, which decides where its buttons lead. */
export type Visitor = 'signed-out' | 'has-access' | 'needs-upgrade'

const MOCK_SUBJECT = '1:1 mock interview request'
export const MOCK_INTERVIEW_MAILTO = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(MOCK_SUBJECT)}`

const FREE = ['A 7-day free trial', '2 practice interviews with feedback', 'Every profession and the Big 3 questions']
const PREMIUM = [
  'One year of unlimited practice interviews',
  'Feedback and scores on every answer',
  'Your saved sessions and progress for the whole year',
  'One-time payment: it never renews by itself',
]
const MOCK = ['60 minutes with an interviewer, by video call', 'Questions for your profession and your schools', 'Written notes afterwards']

const FAQS: { q: string; a: ReactNode }[] = [
  {
    q: 'What happens after the year?',
    a: 'Your Premium pass simply ends: nothing renews and you are never charged again. We email you a week before it ends. Practice and your saved sessions lock until you buy a new pass, which adds another year.',
  },
  {
    q: 'Can I get a refund?',
    a: (
      <>
        Yes. Write to{' '}
        <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-primary underline-offset-4 hover:underline">
          {SUPPORT_EMAIL}
        </a>{' '}
        within 7 days of buying your pass for a full refund. Your Premium access ends when the refund is made.
      </>
    ),
  },
  {
    q: 'What do you store, and what is deleted?',
    a: 'We keep your account, your access dates and the sessions you save: questions, transcripts, feedback and scores. Your video and audio recordings are never stored: each answer is turned into text and the recording is deleted straight away.',
  },
  {
    q: 'Which professions can I practise for?',
    a: 'Dental, medical, physical therapy, physician assistant, pharmacy, occupational therapy and veterinary school interviews. One pass covers all of them.',
  },
  {
    q: 'Does it work on my phone and in Safari?',
    a: 'Yes. Whitecoat runs in any current browser, including Safari on iPhone and iPad and Chrome on Android. Allow camera and microphone access when asked; audio-only practice works too.',
  },
  {
    q: 'How does scoring work, and which engines run?',
    a: 'Each answer is transcribed by a speech-to-text engine, then scored from 0 to 100 on overall impression, clarity and structure, and content, with suggestions. By default both run on our own server (an open-source speech recogniser and a rubric written with interviewers); a server may use an OpenAI-compatible service instead.',
  },
]

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

/** Spec §2 Pricing: three plans and the questions people ask before buying. */
export function PricingPage({ visitor, slug }: { visitor: Visitor; slug: ProfessionSlug }) {
  const start = visitor === 'signed-out' ? '/signup' : `/${slug}/setup`
  const premiumAction =
    visitor === 'needs-upgrade' ? (
      <UpgradeButton slug={slug} label="Upgrade" className="w-full" />
    ) : (
      <Button asChild className="w-full">
        <Link to={start}>{visitor === 'signed-out' ? 'Get Premium' : 'Start practice'}</Link>
      </Button>
    )
  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12">
      <title>Pricing · Whitecoat</title>
      <div className="grid gap-2 text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Pricing</h1>
        <p className="text-muted-foreground">Start free. Pay once for a year of practice. No subscription.</p>
      </div>
      <div className="grid gap-6 md:grid-cols-3">
        <Plan
          name="Free"
          price="$0"
          per="for 7 days"
          action={
            <Button asChild variant="outline" className="w-full">
              <Link to={start}>{visitor === 'signed-out' ? 'Start free trial' : 'Start practice'}</Link>
            </Button>
          }
        >
          <Features items={FREE} />
        </Plan>
        <Plan name="Premium" price="$29" per="one-time, for one year" action={premiumAction} highlight>
          <Features items={PREMIUM} />
        </Plan>
        <Plan
          name="1:1 mock interview"
          price="$75"
          per="per hour (60 minutes)"
          action={
            <Button asChild variant="outline" className="w-full">
              <a href={MOCK_INTERVIEW_MAILTO}>Request by email</a>
            </Button>
          }
        >
          <Features items={MOCK} />
        </Plan>
      </div>
      <section aria-labelledby="faq" className="mx-auto grid w-full max-w-3xl gap-3">
        <h2 id="faq" className="text-2xl font-semibold">
          Frequently asked questions
        </h2>
        {FAQS.map((f) => (
          <details key={f.q} className="rounded-lg border border-border p-4">
            <summary className="cursor-pointer font-medium">{f.q}</summary>
            <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{f.a}</p>
          </details>
        ))}
      </section>
    </div>
  )
}
