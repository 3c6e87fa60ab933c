import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { limits } from '@/api/limits'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select } from '@/components/ui/select'
import { errorMessage } from '@/lib/api-client'
import { toast } from '@/lib/toast'
import { useCreateShareLink, type ShareExpiry } from '../api/create-share-link'
import { useShareLinks, type ShareLink } from '../api/list-share-links'
import { useRevokeShareLink } from '../api/revoke-share-link'

/** The words for each expiry the server offers (limits lists them, in its order). */
const EXPIRY_LABEL: Record<ShareExpiry, string> = {
  '7-days': '7 days',
  '30-days': '30 days',
  'until-revoked': 'Until I turn it off',
}

const STATE_LABEL: Record<ShareLink['state'], string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Turned off',
}

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** What a reviewer sees, said once where the student shares and on the privacy page. */
export const REVIEWER_SEES =
  'Whoever opens the link sees this session’s questions, transcripts, scores and feedback and your first name, and can comment. They need no account and see nothing else of yours.'

/** "Share for comments" and its dialog: a link for one reviewer. */
export function ShareDialog({ savedSessionId }: { savedSessionId: string }) {
  const [open, setOpen] = useState(false)
  const [reviewer, setReviewer] = useState('')
  const [expiry, setExpiry] = useState<ShareExpiry>('7-days')
  const [url, setUrl] = useState<string | null>(null)
  const urlRef = useRef<HTMLInputElement>(null)
  const expiryId = useId()
  const create = useCreateShareLink()

  // The address is shown once: put the student on it as soon as it is on
  // the page (an animation frame after the answer could come before it).
  useEffect(() => {
    if (url) urlRef.current?.select()
  }, [url])

  function onOpenChange(next: boolean) {
    if (next) {
      setReviewer('')
      setExpiry('7-days')
      setUrl(null)
      create.reset()
    }
    setOpen(next)
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    create.mutate(
      { savedSessionId, reviewerName: reviewer, expiry },
      {
        onSuccess: (made) => setUrl(made.url),
      },
    )
  }

  async function copy() {
    if (!url) return
    try {
      await navigator.clipboard.writeText(url)
      toast.success('Link copied.')
    } catch {
      urlRef.current?.select()
      toast.error('Copy the selected link with your keyboard.')
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Share for comments</Button>
      </DialogTrigger>
      <DialogContent>
        {url ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Send this link to {reviewer.trim()}</DialogTitle>
              <DialogDescription>Copy it now: Whitecoat keeps only a fingerprint of it, so it cannot be shown again.</DialogDescription>
            </DialogHeader>
            <div className="grid gap-2">
              <Label htmlFor={`${expiryId}-url`}>Link for {reviewer.trim()}</Label>
              <Input id={`${expiryId}-url`} ref={urlRef} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={copy}>
                Copy link
              </Button>
              <DialogClose asChild>
                <Button>Done</Button>
              </DialogClose>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Share for comments</DialogTitle>
              <DialogDescription>{REVIEWER_SEES}</DialogDescription>
            </DialogHeader>
            <FormField
              label="Reviewer’s name"
              hint="Their comments appear under this name."
              value={reviewer}
              onChange={(e) => setReviewer(e.target.value)}
              maxLength={limits.createShareLink.body.reviewerName.maxLength}
              required
              autoComplete="off"
            />
            <div className="grid gap-2">
              <Label htmlFor={expiryId}>Link works for</Label>
              <Select id={expiryId} value={expiry} onChange={(e) => setExpiry(e.target.value as ShareExpiry)}>
                {limits.createShareLink.body.expiry.enum.map((value) => (
                  <option key={value} value={value}>
                    {EXPIRY_LABEL[value]}
                  </option>
                ))}
              </Select>
            </div>
            <FormStatus status={create.isPending ? 'Creating link...' : null} error={create.isError ? errorMessage(create.error) : null} />
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={create.isPending}>
                Create link
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}

function until(link: ShareLink): string {
  if (link.state === 'revoked') return `Turned off ${day.format(new Date(link.revokedAt!))}`
  if (!link.expiresAt) return 'Works until you turn it off'
  return `${link.state === 'expired' ? 'Expired' : 'Works until'} ${day.format(new Date(link.expiresAt))}`
}

/** One link: whom it is for, whether it opens, its comments, and Turn off while it opens; session names the session in a list of every link. */
export function LinkRow({ link, session }: { link: ShareLink; session?: ReactNode }) {
  const revoke = useRevokeShareLink()
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-md border p-3">
      <div className="grid min-w-0 gap-1">
        {session}
        <p className="flex flex-wrap items-center gap-2 font-medium">
          <span className="break-words">{link.reviewerName}</span>
          <Badge variant={link.state === 'active' ? 'default' : 'outline'}>{STATE_LABEL[link.state]}</Badge>
        </p>
        <p className="text-sm text-muted-foreground">
          {until(link)} · {link.comments === 1 ? '1 comment' : `${link.comments} comments`}
        </p>
      </div>
      {link.state === 'active' ? (
        <Button
          variant="outline"
          size="sm"
          disabled={revoke.isPending}
          aria-label={`Turn off the link for ${link.reviewerName}`}
          onClick={() =>
            revoke.mutate(link.id, {
              onSuccess: () => toast.success(`The link for ${link.reviewerName} no longer opens.`),
              onError: (err) => toast.error(errorMessage(err)),
            })
          }
        >
          Turn off
        </Button>
      ) : null}
    </li>
  )
}

/** On a saved session: share it with a reviewer, and every link made to it, each of which can be turned off. */
export function SharePanel({ savedSessionId }: { savedSessionId: string }) {
  const links = useShareLinks(savedSessionId)
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="grid gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold">
          Share with an advisor
        </h2>
        <ShareDialog savedSessionId={savedSessionId} />
      </div>
      <p className="text-sm text-muted-foreground">Get comments from a pre-health advisor or mentor. {REVIEWER_SEES}</p>
      {links.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(links.error)}
        </p>
      ) : links.data && links.data.length > 0 ? (
        <ul aria-label="Links to this session" className="grid gap-2">
          {links.data.map((link) => (
            <LinkRow key={link.id} link={link} />
          ))}
        </ul>
      ) : links.data ? (
        <p className="text-sm">You have not shared this session yet.</p>
      ) : null}
    </section>
  )
}
