import { HistoryList } from '@/features/history/components/history-list'
import { useProfessions } from '@/features/professions/api/get-professions'
import { AllShareLinks } from '@/features/share/components/all-share-links'
import { normaliseSlug } from '@/lib/professions'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import { HistoryAccess } from '@/routes/history-access'

export function HistoryRoute() {
  const slug = useProfessionSlug()
  const professions = useProfessions()
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-10">
      <title>Session history · Whitecoat</title>
      <h1 className="text-2xl font-semibold">Session history</h1>
      <HistoryAccess title="History is locked" lockedText="Your session history is locked until you upgrade.">
        <HistoryList
          professions={(professions.data?.professions ?? []).map((p) => ({ slug: p.slug, name: p.displayName }))}
          reviewPath={(profession, id) => `/${normaliseSlug(profession) ?? slug}/summary?saved=${encodeURIComponent(id)}`}
        />
        <AllShareLinks reviewPath={(id) => `/${slug}/summary?saved=${encodeURIComponent(id)}`} />
      </HistoryAccess>
    </div>
  )
}
