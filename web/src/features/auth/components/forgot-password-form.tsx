import { useState } from 'react'
import { Link } from 'react-router'
import { FormField } from '@/components/ui/form-field'
import { useForgotPassword } from '../api/forgot-password'
import { AuthCard } from './auth-card'
import { AuthForm } from './auth-form'

export function ForgotPasswordForm() {
  const mutation = useForgotPassword()
  const [email, setEmail] = useState('')


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
      <AuthForm
        mutation={mutation}
        onSubmit={() => mutation.mutate({ email: email.trim() })}
        submitLabel="Send reset link"
        pendingStatus="Sending reset link..."
        successStatus={(data) => data.message}
      >
        <FormField label="Email" name="email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      </AuthForm>
    </AuthCard>
  )
}
