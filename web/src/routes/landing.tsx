import { AnswerCard } from '@/components/answer/answer-card'
import { useMe } from '@/features/auth/api/get-me'
import { useExampleAnswer } from '@/features/landing/api/get-example-answer'
import { LandingPage } from '@/features/landing/components/landing-page'
import { useProfession } from '@/features/professions/api/get-professions'
import { TryQuestion } from '@/features/tryout/components/try-question'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

export function LandingRoute() {
  const slug = useProfessionSlug()
  const me = useMe()
  const { profession, isPending, isError, refetch } = useProfession(slug)
  const example = useExampleAnswer(slug)
  return (
    <>
      <title>{profession ? `${profession.displayName} interview practice · Whitecoat` : 'Whitecoat'}</title>
      <LandingPage
        slug={slug}
        signedIn={!!me.data}
        hero={profession ? { title: profession.heroTitle, subtitle: profession.heroSubtitle, displayName: profession.displayName } : undefined}
        guide={profession}
        example={example.data ? <AnswerCard answer={example.data} id="example" /> : undefined}
        tryIt={
          profession && !me.data ? (
            <TryQuestion slug={slug} />
          ) : undefined
        }
        heroState={profession ? 'ready' : isPending ? 'loading' : isError ? 'error' : 'error'}
        onRetry={() => void refetch()}
      />
    </>
  )
}
