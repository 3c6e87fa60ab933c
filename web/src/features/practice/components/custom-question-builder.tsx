import { Plus, X } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { limits } from '@/api/limits'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select } from '@/components/ui/select'
import { errorMessage } from '@/lib/api-client'
import { PROFESSION_SLUGS, type ProfessionSlug } from '@/lib/professions'
import { useQuestionBank } from '../api/get-question-bank'
import { addCustomQuestion, hasQuestion, MAX_CUSTOM_QUESTIONS, searchQuestions } from '../utils/custom-questions'
import type { ProfessionNames } from '@/components/profession-tag'

/** How many bank matches are listed at once; the search narrows the rest. */
const SHOWN_MATCHES = 30

/** Filter value for the whole bank. */
const ALL = 'all'

/**
 * The custom session's question list: type a question or pick one from the
 * bank, which opens on the profession practised and can show any or all.
 * Professions share many questions, so each row names its professions and subtag.
 */
export function CustomQuestionBuilder(props: {
  questions: readonly string[]
  onChange: (next: readonly string[]) => void
  slug: ProfessionSlug
  nameOf: ProfessionNames
}) {
  const { questions, onChange, nameOf } = props
  const [draft, setDraft] = useState('')
  const [query, setQuery] = useState('')
  const [profession, setProfession] = useState<string>(props.slug)
  const bank = useQuestionBank()
  const draftId = useId()
  const searchId = useId()
  const filterId = useId()
  const full = questions.length >= MAX_CUSTOM_QUESTIONS
  const inProfession = (bank.data ?? []).filter((q) => profession === ALL || q.mainTags.includes(profession))
  const matches = searchQuestions(inProfession, query)

  function onAdd(e: FormEvent) {
    e.preventDefault()
    onChange(addCustomQuestion(questions, draft))
    setDraft('')
  }

  return (
    <div className="grid gap-5">
      <div className="grid gap-2">
        <h3 className="font-semibold">Your questions ({questions.length}/{MAX_CUSTOM_QUESTIONS})</h3>
        {questions.length === 0 ? (
          <p className="text-sm text-muted-foreground">Add at least one question.</p>
        ) : (
          <ol className="grid gap-2">
            {questions.map((q, i) => (
              <li key={q} className="flex items-start justify-between gap-2 rounded-md border border-border p-2 text-sm">
                <span>
                  {i + 1}. {q}
                </span>
                <Button variant="ghost" size="sm" onClick={() => onChange(questions.filter((x) => x !== q))}>
                  <X aria-hidden="true" />
                  <span className="sr-only">Remove “{q}”</span>
                </Button>
              </li>
            ))}
          </ol>
        )}
      </div>

      {/* A nested form would be invalid HTML: this is a group whose button adds on Enter. */}
      <div className="grid gap-2">
        <Label htmlFor={draftId}>Write a question</Label>
        <div className="flex gap-2">
          <Input
            id={draftId}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') onAdd(e)
            }}
            maxLength={limits.createPracticeSession.body.questions.items.text.maxLength}
            disabled={full}
          />
          <Button variant="outline" onClick={onAdd} disabled={full}>
            <Plus aria-hidden="true" />
            Add
          </Button>
        </div>
      </div>

      <div className="grid gap-2">
        <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
          <div className="grid gap-2">
            <Label htmlFor={filterId}>Profession</Label>
            <Select id={filterId} value={profession} onChange={(e) => setProfession(e.target.value)}>
              <option value={ALL}>All professions</option>
              {PROFESSION_SLUGS.map((slug) => (
                <option key={slug} value={slug}>
                  {nameOf(slug)}
                </option>
              ))}
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor={searchId}>Search the question bank</Label>
            <Input id={searchId} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
          </div>
        </div>
        {bank.isPending ? (
          <p className="text-sm text-muted-foreground">Loading questions...</p>
        ) : bank.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(bank.error)}
          </p>
        ) : (
          <>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {matches.length === 1 ? '1 question' : `${matches.length} questions`}
              {matches.length > SHOWN_MATCHES ? ` (showing ${SHOWN_MATCHES}; search to narrow)` : ''}
            </p>
            <ul className="relative grid max-h-80 gap-1 overflow-y-auto rounded-md border border-border p-1" aria-label="Question bank">
              {matches.slice(0, SHOWN_MATCHES).map((q) => {
                const added = hasQuestion(questions, q.text)
                return (
                  <li key={q.id ?? q.text} className="flex items-start justify-between gap-2 rounded p-2 text-sm hover:bg-muted">
                    <span className="grid gap-0.5">
                      <span>{q.text}</span>
                      <span className="text-xs text-muted-foreground">{[q.mainTags.map(nameOf).join(', '), q.subtag].filter(Boolean).join(' · ')}</span>
                    </span>
                    <Button variant="outline" size="sm" disabled={added || full} onClick={() => onChange(addCustomQuestion(questions, q.text))}>
                      {added ? 'Added' : 'Add'}
                      <span className="sr-only"> “{q.text}”</span>
                    </Button>
                  </li>
                )
              })}
            </ul>
          </>
        )}
      </div>
    </div>
  )
}
