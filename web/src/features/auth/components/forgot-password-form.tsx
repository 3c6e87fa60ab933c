import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { FormStatus } from '@/components/ui/form-status'
import { errorMessage } from '@/lib/api-client'
import { useForgotPassword } from '../api/forgot-password'
import { AuthCard } from './auth-card'

export function ForgotPasswordForm() {
  const mutation = useForgotPassword()
  const [email, setEmail] = useState('')

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault()
    if (mutation.isPending) return
    mutation.mutate({ email: email.trim() })
  }

  const status = mutation.isPending ? 'Sending reset link...' : mutation.isSuccess ? mutation.data.message : null
  const error = mutation.isError ? errorMessage(mutation.error) : null

  return (
    <AuthCard
      title="Reset your password"
      description="Enter the email you signed up with and we'll send you a link to choose a new password."
      footer={
        <Link to="/login" className="font-medium text-primary underline-offset-4 hover:underline">
          Back to log in
        </Link>
      }
    >
      <form onSubmit={onSubmit} className="grid gap-4">
        <FormField label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" disabled={mutation.isPending} className="w-full">
          Send reset link
        </Button>
        <FormStatus status={status} error={error} />
      </form>
    </AuthCard>
  )
}
