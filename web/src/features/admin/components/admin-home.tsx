import { Link } from 'react-router'
import { ListChecks } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ReportedComments } from './reported-comments'
import { UsersTable } from './users-table'

/** The admin dashboard (spec §2): the users table and the way to the question manager. */
export function AdminHome({ questionsPath }: { questionsPath: string }) {
  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Admin dashboard</h1>
        <Button asChild variant="outline">
          <Link to={questionsPath}>
            <ListChecks aria-hidden="true" />
            Manage questions
          </Link>
        </Button>
      </div>
      <section aria-labelledby="users-title" className="grid gap-4">
        <h2 id="users-title" className="text-xl font-semibold">
          Users
        </h2>
        <UsersTable />
      </section>
      <ReportedComments />
    </div>
  )
}
