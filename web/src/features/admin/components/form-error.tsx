import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'

/**
 * A form's error, announced as soon as it appears. `detail` is the server's
 * own explanation when the spec fixes a shorter headline.
 */
export function FormError({ message, detail }: { message: string | null; detail?: string | null }) {
  if (!message) return null
  return (
    <Alert variant="destructive" role="alert">
      <AlertTitle className="text-sm">{message}</AlertTitle>
      {detail && detail !== message ? <AlertDescription>{detail}</AlertDescription> : null}
    </Alert>
  )
}
