import { Fragment, useEffect, useId, useReducer, useState } from 'react'
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react'
import { limits } from '@/api/limits'
import { Badge } from '@/components/ui/badge'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/load-error'
import { Table, TableCaption, TableCell, TableHead, TableRow } from '@/components/ui/table'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { errorMessage } from '@/lib/api-client'
import { useUsers, type UserSort, type UsersQuery } from '../api/list-users'
import { ariaSort, listReducer, nextSort, PAGE_SIZES, type Sorting } from '../utils/list-state'
import { Pagination } from './pagination'
import { PaymentsDialog } from './payments-dialog'
import { UserDataActions } from './user-data-actions'

type UsersState = Required<UsersQuery>

/** Newest accounts first, as the server does by default. */
const INITIAL: UsersState = { q: '', sort: 'createdAt', order: 'desc', page: 1, pageSize: PAGE_SIZES[0] }

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** The columns of spec §6; verified and paid cannot be sorted by the API. */
const COLUMNS: { label: string; sort?: UserSort }[] = [
  { label: 'Name', sort: 'name' },
  { label: 'Email', sort: 'email' },
  { label: 'Verified' },
  { label: 'Trial ends', sort: 'trialExpiresAt' },
  // Paid, until when and the payments, one column, so that the table fits
  // a 1280 px window.
  { label: 'Premium' },
  { label: 'Usage', sort: 'usageCount' },
  { label: 'Role', sort: 'role' },
  { label: 'Data' },
]

/** An email that may wrap after its dots and before its @, where a reader expects a break. */
function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=@)|(?<=\.)/)
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ))
}

function SortableHead({ label, column, sorting, onSort }: { label: string; column: UserSort; sorting: Sorting; onSort: (c: UserSort) => void }) {
  const dir = ariaSort(sorting, column)
  const Icon = dir === 'ascending' ? ArrowUp : dir === 'descending' ? ArrowDown : ArrowUpDown
  return (
    <TableHead aria-sort={dir} className="p-0">
      <button
        type="button"
        onClick={() => onSort(column)}
        className="flex h-11 w-full items-center gap-1.5 px-3 font-semibold hover:bg-secondary focus-visible:outline-3 focus-visible:-outline-offset-3 focus-visible:outline-ring"
      >
        {label}
        <Icon aria-hidden="true" className={dir === 'none' ? 'size-4 text-muted-foreground' : 'size-4'} />
      </button>
    </TableHead>
  )
}

/**
 * Every account, searched, sorted and paged on the server so it stays quick
 * with tens of thousands of users.
 */
export function UsersTable() {
  const searchId = useId()
  const [state, dispatch] = useReducer(listReducer<Omit<UsersState, 'page' | 'pageSize'>>, INITIAL)
  const [search, setSearch] = useState('')
  const q = useDebouncedValue(search.trim())
  useEffect(() => dispatch({ type: 'filter', patch: { q } }), [q])

  const users = useUsers(state)
  const rows = users.data?.users ?? []

  return (
    <div className="grid gap-4">
      <div className="grid max-w-md gap-2">
        <Label htmlFor={searchId}>Search users</Label>
        <Input id={searchId} type="search" maxLength={limits.adminListUsers.query.q.maxLength} placeholder="Name or email" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>

      {users.isError && !users.data ? (
        <LoadError title={errorMessage(users.error)} onRetry={() => void users.refetch()} />
      ) : (
        <Table label="Users table" aria-busy={users.isFetching} className={users.isPlaceholderData ? 'opacity-60' : undefined}>
          <TableCaption>Users, sortable by column; {users.data ? `${users.data.total} in total` : 'loading'}</TableCaption>
          <thead>
            <tr>
              {COLUMNS.map((c) =>
                c.sort ? (
                  <SortableHead key={c.label} label={c.label} column={c.sort} sorting={state} onSort={(col) => dispatch({ type: 'filter', patch: nextSort(state, col) })} />
                ) : (
                  <TableHead key={c.label}>{c.label}</TableHead>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((u) => (
              <TableRow key={u.id}>
                <TableCell className="min-w-32 font-medium">{u.name || '—'}</TableCell>
                <TableCell className="min-w-48 wrap-anywhere">
                  <BreakableEmail email={u.email} />
                </TableCell>
                <TableCell>{u.emailVerified ? 'Yes' : 'No'}</TableCell>
                <TableCell className="whitespace-nowrap">
                  <time dateTime={u.trialExpiresAt}>{dateFormat.format(new Date(u.trialExpiresAt))}</time>
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  {!u.hasPaid ? (
                    'No'
                  ) : (
                    <div className="grid justify-items-start gap-1">
                      {u.subscriptionEndsAt ? <time dateTime={u.subscriptionEndsAt}>Until {dateFormat.format(new Date(u.subscriptionEndsAt))}</time> : 'Yes'}
                      <PaymentsDialog userId={u.id} name={u.name || u.email} />
                    </div>
                  )}
                </TableCell>
                <TableCell className="tabular-nums">
                  {u.usageCount}
                  {/* That a student shares sessions, never what reviewers wrote (issue 31). */}
                  {u.sharedSessions > 0 ? (
                    <span className="block text-xs whitespace-nowrap text-muted-foreground">Shares {u.sharedSessions === 1 ? '1 session' : `${u.sharedSessions} sessions`}</span>
                  ) : null}
                </TableCell>
                <TableCell>
                  <Badge variant={u.role === 'admin' ? 'default' : 'outline'}>{u.role}</Badge>
                </TableCell>
                <TableCell>
                  <UserDataActions userId={u.id} name={u.name || u.email} />
                </TableCell>
              </TableRow>
            ))}
            {users.isPending || rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} className="py-8 text-center text-muted-foreground">
                  {users.isPending ? 'Loading users...' : state.q ? `No users match “${state.q}”.` : 'No users yet.'}
                </TableCell>
              </TableRow>
            ) : null}
          </tbody>
        </Table>
      )}

      {users.data ? <Pagination label="Users pages" noun="users" total={users.data.total} paging={state} dispatch={dispatch} /> : null}
    </div>
  )
}
