import { Component, type ErrorInfo, type ReactNode } from 'react'

interface State {
  error: Error | null
}

/** Last-resort boundary around the whole app: a clear message instead of a blank screen. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unhandled error:', error, info.componentStack)
  }

  render() {
    if (this.state.error) return <ErrorScreen message={this.state.error.message} />
    return this.props.children
  }
}

export function ErrorScreen({ message }: { message?: string }) {
  return (
    <main id="main" className="mx-auto flex min-h-[60vh] max-w-lg flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="text-muted-foreground">The page hit an unexpected error. Reloading usually helps.</p>
      {message ? <p className="break-words rounded bg-muted px-3 py-2 font-mono text-xs text-muted-foreground">{message}</p> : null}
      <div className="flex gap-3">
        <button type="button" className="rounded-md bg-primary px-4 py-2 font-semibold text-primary-foreground hover:bg-primary-hover" onClick={() => window.location.reload()}>
          Reload
        </button>
        <a className="rounded-md border border-input px-4 py-2 font-semibold hover:bg-muted" href="/">
          Go to home page
        </a>
      </div>
    </main>
  )
}
