import { AdminHome } from '@/features/admin/components/admin-home'
import { QuestionManager } from '@/features/admin/components/question-manager'
import { useProfessions } from '@/features/professions/api/get-professions'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

export function AdminRoute() {
  const slug = useProfessionSlug()
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <title>Admin · Whitecoat</title>
      <AdminHome questionsPath={`/${slug}/admin/questions`} />
    </div>
  )
}

export function AdminQuestionsRoute() {
  const slug = useProfessionSlug()
  // The profession choices come from the API's registry, never a copy here.
  const { data } = useProfessions()
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <title>Questions · Admin · Whitecoat</title>
      <QuestionManager adminPath={`/${slug}/admin`} professions={data?.professions ?? []} />
    </div>
  )
}
