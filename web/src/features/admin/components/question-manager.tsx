import { useEffect, useId, useReducer, useRef, useState } from 'react'
import { Link } from 'react-router'
import { limits } from '@/api/limits'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select } from '@/components/ui/select'
import { LoadError } from '@/components/load-error'
import { Table, TableCaption, TableCell, TableHead, TableRow } from '@/components/ui/table'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { errorMessage } from '@/lib/api-client'
import { useQuestions, type Question, type QuestionsQuery } from '../api/list-questions'
import { listReducer, PAGE_SIZES } from '../utils/list-state'
import { SUBTAGS } from '../utils/question-form'
import { NewQuestionDialog } from './new-question-dialog'
import { Pagination } from './pagination'
import { QuestionDialog } from './question-dialog'
import { professionNames, type ProfessionOption } from './question-editor'

type QuestionsState = Required<QuestionsQuery>

const INITIAL: QuestionsState = { profession: '', subtag: '', q: '', page: 1, pageSize: PAGE_SIZES[0] }

const COLUMNS = ['Question', 'Professions', 'Subtag', 'Big 3', 'Details']

/** The question manager (spec §2): filter, search and page the bank; add, view, edit and delete. */
export function QuestionManager({ adminPath, professions }: { adminPath: string; professions: ProfessionOption[] }) {
  const id = useId()
  const [state, dispatch] = useReducer(listReducer<Omit<QuestionsState, 'page' | 'pageSize'>>, INITIAL)
  const [search, setSearch] = useState('')
  const q = useDebouncedValue(search.trim())
  useEffect(() => dispatch({ type: 'filter', patch: { q } }), [q])
  const [open, setOpen] = useState<(Question & { id: string }) | null>(null)
  // The dialog has no Radix trigger (it opens from a row), so focus is put
  // back by hand: on the View button that opened it, or, when a delete took
  // that row away, on the search box rather than lost to the page.
  const opener = useRef<HTMLButtonElement | null>(null)
  const searchInput = useRef<HTMLInputElement>(null)
  function onCloseAutoFocus(event: Event) {
    event.preventDefault()
    ;(opener.current?.isConnected ? opener.current : searchInput.current)?.focus()
  }

  const questions = useQuestions(state)
  const rows = questions.data?.questions ?? []
  const filtered = state.profession || state.subtag || state.q

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">Question manager</h1>
        <NewQuestionDialog professions={professions} />
      </div>
      <Link to={adminPath} className="w-fit font-medium text-primary underline-offset-4 hover:underline">
        Back to admin dashboard
      </Link>

      <div role="search" aria-label="Filter questions" className="grid gap-4 sm:grid-cols-3">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-profession`}>Profession</Label>
          <Select id={`${id}-profession`} value={state.profession} onChange={(e) => dispatch({ type: 'filter', patch: { profession: e.target.value } })}>
            <option value="">All professions</option>
            {professions.map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.displayName}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-subtag`}>Subtag</Label>
          <Select id={`${id}-subtag`} value={state.subtag} onChange={(e) => dispatch({ type: 'filter', patch: { subtag: e.target.value } })}>
            <option value="">All subtags</option>
            {SUBTAGS.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-q`}>Search questions</Label>
          <Input ref={searchInput} id={`${id}-q`} type="search" maxLength={limits.adminListQuestions.query.q.maxLength} placeholder="Words in the question" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
      </div>

      {questions.isError && !questions.data ? (
        <LoadError title={errorMessage(questions.error)} onRetry={() => void questions.refetch()} />
      ) : (
        <Table label="Questions table" aria-busy={questions.isFetching} className={questions.isPlaceholderData ? 'opacity-60' : undefined}>
          <TableCaption>Questions in the bank{questions.data ? `, ${questions.data.total} matching` : ''}</TableCaption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                // The button column needs a header for screen readers only.
                <TableHead key={c}>{c === 'Details' ? <span className="sr-only">{c}</span> : c}</TableHead>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((question) => (
              <TableRow key={question.id}>
                <TableCell className="min-w-56 max-w-xl">
                  {question.scenario ? (
                    <span className="line-clamp-2">
                      <Badge variant="outline" className="mr-1">
                        Station
                      </Badge>
                      {question.scenario}
                    </span>
                  ) : null}
                  <span className="line-clamp-2">{question.text}</span>
                </TableCell>
                <TableCell className="min-w-32">{professionNames(question.mainTags, professions)}</TableCell>
                <TableCell>{question.subtag ? <Badge variant="secondary">{question.subtag}</Badge> : null}</TableCell>
                <TableCell className="whitespace-nowrap">{question.big3 ? `#${question.big3Order}` : 'No'}</TableCell>
                <TableCell className="text-right">
                  {question.id ? (
                    <Button variant="outline" size="sm" onClick={(e) => {
                        opener.current = e.currentTarget
                        setOpen({ ...question, id: question.id! })
                      }}>
                      View<span className="sr-only">: {question.text}</span>
                    </Button>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
            {questions.isPending || rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={COLUMNS.length} className="py-8 text-center text-muted-foreground">
                  {questions.isPending ? 'Loading questions...' : filtered ? 'No questions match these filters.' : 'No questions yet.'}
                </TableCell>
              </TableRow>
            ) : null}
          </tbody>
        </Table>
      )}

      {questions.data ? <Pagination label="Questions pages" noun="questions" total={questions.data.total} paging={state} dispatch={dispatch} /> : null}

      {open ? <QuestionDialog key={open.id} listed={open} professions={professions} onClose={() => setOpen(null)} onCloseAutoFocus={onCloseAutoFocus} /> : null}
    </div>
  )
}
