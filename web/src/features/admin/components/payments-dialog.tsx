import { useState } from 'react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { LoadError } from '@/components/load-error'
import { Table, TableCell, TableHead, TableRow } from '@/components/ui/table'
import { errorMessage } from '@/lib/api-client'
import { usePayments, type Payment } from '../api/list-payments'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

function amount(p: Payment) {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: p.currency.toUpperCase() }).format(p.amountCents / 100)
}

function When({ iso }: { iso: string | null }) {
  return iso ? <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time> : <>—</>
}

/** One user's payments: amount, status, and whether refunded or disputed. */
export function PaymentsDialog({ userId, name }: { userId: string; name: string }) {
  const [open, setOpen] = useState(false)
  const payments = usePayments(userId, open)
  const rows = payments.data?.payments ?? []
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Payments of ${name}`}>
          Payments
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Payments of {name}</DialogTitle>
          <DialogDescription>Premium passes bought through Stripe, newest first.</DialogDescription>
        </DialogHeader>
        {payments.isError ? (
          <LoadError title={errorMessage(payments.error)} onRetry={() => void payments.refetch()} />
        ) : payments.isPending ? (
          <p className="text-sm text-muted-foreground">Loading payments...</p>
        ) : rows.length === 0 ? (
          <p className="text-sm text-muted-foreground">No payments.</p>
        ) : (
          <Table label={`Payments of ${name}`}>
            <thead>
              <tr>
                <TableHead>Paid</TableHead>
                <TableHead>Amount</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Pass ends</TableHead>
                <TableHead>Refunded</TableHead>
                <TableHead>Disputed</TableHead>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <TableRow key={p.id}>
                  <TableCell className="whitespace-nowrap">
                    <When iso={p.createdAt} />
                  </TableCell>
                  <TableCell className="tabular-nums">{amount(p)}</TableCell>
                  <TableCell>
                    <Badge variant={p.status === 'paid' ? 'default' : p.status === 'unrecognised' ? 'destructive' : 'outline'}>{p.status}</Badge>
                    {p.note ? <p className="mt-1 max-w-64 text-xs text-muted-foreground">{p.note}</p> : null}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <When iso={p.passEndsAt} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <When iso={p.refundedAt} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {p.disputedAt ? (
                      <Badge variant="destructive">
                        <When iso={p.disputedAt} />
                      </Badge>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </tbody>
          </Table>
        )}
      </DialogContent>
    </Dialog>
  )
}
