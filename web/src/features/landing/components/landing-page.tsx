import { Link } from 'react-router'
import { BarChart3, ClipboardList, Lock, MessageSquareText, SlidersHorizontal, Video } from 'lucide-react'
import type { ReactNode } from 'react'
import type { components } from '@/api/schema'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card'

export interface LandingHero {
  title: string
  subtitle: string
  displayName: string
}

/** The profession's own advice, straight from the API's registry. */
export type LandingGuide = Pick<components['schemas']['Profession'], 'displayName' | 'defaultQuestion' | 'interviewFormats' | 'tipsIntro' | 'tips'>

export const CREATE_FREE_ACCOUNT = 'Create free account'
export const START_PRACTICE_SESSION = 'Start a practice session'

const FEATURES: { title: string; body: string; icon: ReactNode }[] = [
  {
    title: 'Profession-Specific Questions',
    body: 'Questions written for your field, from the classic "why this profession" to ethics and teamwork scenarios.',
    icon: <ClipboardList aria-hidden="true" />,
  },
  {
    title: 'Video Practice Sessions',
    body: 'Answer out loud on camera or audio only, one question at a time, just like the real interview.',
    icon: <Video aria-hidden="true" />,
  },
  {
    title: 'Feedback on Every Answer',
    body: 'Get a transcript, scores for impression, clarity and content, and concrete suggestions after every answer: on our benchmark, about a second after you stop (median).',
    icon: <MessageSquareText aria-hidden="true" />,
  },
  {
    title: 'Customizable Scenarios',
    body: 'Pick random or custom questions, the number of questions, and whether to start with the Big 3.',
    icon: <SlidersHorizontal aria-hidden="true" />,
  },
  {
    title: 'Progress Tracking',
    body: 'Save sessions to your dashboard and watch your average score improve over time.',
    icon: <BarChart3 aria-hidden="true" />,
  },
  {
    title: 'Secure & Private',
    body: 'Recordings are never stored. Only your transcripts, feedback and scores are kept.',
    icon: <Lock aria-hidden="true" />,
  },
]

const STEPS: { title: string; body: string }[] = [
  { title: 'Try One Question Free', body: 'Answer the first question above out loud or in writing, with no account, and see your feedback right away.' },
  { title: 'Choose Your Format', body: 'Pick video or audio, how many questions, and random or your own custom questions.' },
  { title: 'Practice Answering Questions', body: 'Answer each question out loud with up to three minutes per answer, as you would on interview day.' },
  {
    title: 'Review and Improve',
    body: 'Read your transcript, scores and suggestions, share a saved session with an advisor for comments, then practice again and track your progress.',
  },
]

function PrimaryAction({ signedIn, slug }: { signedIn: boolean; slug: string }) {
  return signedIn ? (
    <Button asChild size="lg">
      <Link to={`/${slug}/dashboard`}>{START_PRACTICE_SESSION}</Link>
    </Button>
  ) : (
    <Button asChild size="lg">
      <Link to="/signup">{CREATE_FREE_ACCOUNT}</Link>
    </Button>
  )
}

/**
 * The profession's default question, how its interviews run, and its tips:
 * what makes each of the seven landing pages its own. The question is
 * quoted, not drawn as a button; under it a visitor tries it without an
 * account (`tryIt`), and a student practices it (every session starts
 * with the Big 3, this question among them).
 */
function ProfessionGuide({ guide, signedIn, slug, tryIt }: { guide: LandingGuide; signedIn: boolean; slug: string; tryIt?: ReactNode }) {
  return (
    <section aria-labelledby="practice-title" className="mx-auto grid max-w-5xl grid-cols-1 gap-10 px-4 py-16">
      <div className="grid grid-cols-1 gap-4 border-l-4 border-primary pl-4 sm:pl-6">
        <h2 id="practice-title" className="text-sm font-semibold uppercase tracking-wide text-primary">
          The question to expect first
        </h2>
        <blockquote className="text-2xl font-bold tracking-tight text-balance sm:text-3xl">“{guide.defaultQuestion}”</blockquote>
        {tryIt ?? (
          <Button asChild variant="outline" className="justify-self-start">
            <Link to={signedIn ? `/${slug}/setup` : '/signup'}>Practice this question</Link>
          </Button>
        )}
        <h3 className="mt-4 text-lg font-semibold">How {guide.displayName} interviews work</h3>
        <p className="text-muted-foreground text-pretty">{guide.interviewFormats}</p>
      </div>
      <div className="grid gap-6">
        <h2 className="text-3xl font-bold tracking-tight">{guide.displayName} interview tips</h2>
        <p className="max-w-3xl text-muted-foreground text-pretty">{guide.tipsIntro}</p>
        <ul className="grid gap-6 sm:grid-cols-2">
          {guide.tips.map((tip) => (
            <li key={tip.title}>
              <Card className="h-full">
                <CardHeader>
                  <CardTitle>{tip.title}</CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground text-pretty">{tip.body}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </section>
  )
}

/**
 * An answer to the profession's default question with its feedback, drawn
 * by the practice summary's own result card (the route passes it in:
 * features do not import each other).
 */
function ExampleFeedback({ question, card }: { question: string; card: ReactNode }) {
  return (
    <section aria-labelledby="example-title" className="bg-muted">
      <div className="mx-auto grid max-w-3xl gap-4 px-4 py-16">
        <h2 id="example-title" className="text-3xl font-bold tracking-tight">
          What your feedback looks like
        </h2>
        <p className="text-muted-foreground text-pretty">
          An example answer to “{question}”, scored by the same engine that scores your practice answers. Open the details to see how each score was reached.
        </p>
        {card}
      </div>
    </section>
  )
}

export function LandingPage({
  slug,
  hero,
  guide,
  example,
  tryIt,
  heroState,
  onRetry,
  signedIn,
}: {
  slug: string
  /** The example answer's result card, once there is one. */
  example?: ReactNode
  /** Trying the question without an account, for a visitor. */
  tryIt?: ReactNode
  hero: LandingHero | undefined
  guide: LandingGuide | undefined
  heroState: 'loading' | 'error' | 'ready'
  onRetry: () => void
  signedIn: boolean
}) {
  return (
    <>
      <section aria-labelledby="hero-title" className="bg-gradient-to-b from-teal-50 to-background">
        <div className="mx-auto flex max-w-5xl flex-col items-center gap-6 px-4 py-16 text-center sm:py-24">
          {hero ? (
            <>
              <p className="text-sm font-semibold uppercase tracking-wide text-primary">{hero.displayName} interview practice</p>
              <h1 id="hero-title" className="max-w-3xl text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
                {hero.title}
              </h1>
              <p className="max-w-2xl text-lg text-muted-foreground text-pretty">{hero.subtitle}</p>
            </>
          ) : heroState === 'error' ? (
            <>
              <h1 id="hero-title" className="text-3xl font-bold">
                Interview practice
              </h1>
              <LoadError title="We couldn't load this page's content." onRetry={onRetry} className="max-w-md" />
            </>
          ) : (
            <div aria-busy="true" className="flex w-full flex-col items-center gap-4">
              <h1 id="hero-title" className="sr-only">
                Loading...
              </h1>
              <div className="h-12 w-3/4 max-w-xl animate-pulse rounded bg-muted" />
              <div className="h-6 w-2/3 max-w-lg animate-pulse rounded bg-muted" />
            </div>
          )}
          <PrimaryAction signedIn={signedIn} slug={slug} />
        </div>
      </section>

      {guide ? <ProfessionGuide guide={guide} signedIn={signedIn} slug={slug} tryIt={tryIt} /> : null}

      {guide && example ? <ExampleFeedback question={guide.defaultQuestion} card={example} /> : null}

      <section id="features" aria-labelledby="features-title" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16">
        <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
          Everything You Need to Succeed
        </h2>
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((f) => (
            <li key={f.title}>
              <Card className="h-full">
                <CardHeader>
                  <span className="flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground [&_svg]:size-5">{f.icon}</span>
                  <CardTitle>{f.title}</CardTitle>
                </CardHeader>
                <CardContent>
                  <p className="text-sm text-muted-foreground">{f.body}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="how-title" className="bg-muted">
        <div className="mx-auto max-w-5xl px-4 py-16">
          <h2 id="how-title" className="text-center text-3xl font-bold tracking-tight">
            How it works
          </h2>
          <ol className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-4">
            {STEPS.map((s, i) => (
              <li key={s.title} className="rounded-xl bg-background p-6 shadow-sm">
                <span className="flex size-9 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground" aria-hidden="true">
                  {i + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold">
                  <span className="sr-only">Step {i + 1}: </span>
                  {s.title}
                </h3>
                <p className="mt-2 text-sm text-muted-foreground">{s.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section aria-labelledby="cta-title" className="mx-auto flex max-w-3xl flex-col items-center gap-4 px-4 py-16 text-center">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight">
          Ready to practice?
        </h2>
        <p className="text-muted-foreground">Your first two practice sessions are free. No card needed.</p>
        <PrimaryAction signedIn={signedIn} slug={slug} />
      </section>
    </>
  )
}
