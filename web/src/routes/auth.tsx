import { useSearchParams } from 'react-router'
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form'
import { LoginForm } from '@/features/auth/components/login-form'
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form'
import { SignupForm } from '@/features/auth/components/signup-form'
import { VerifyEmailConfirm } from '@/features/auth/components/verify-email-confirm'

export function LoginRoute() {
  return (
    <>
      <title>Log in · Whitecoat</title>
      <LoginForm />
    </>
  )
}

export function SignupRoute() {
  return (
    <>
      <title>Create account · Whitecoat</title>
      <SignupForm />
    </>
  )
}

export function ForgotPasswordRoute() {
  return (
    <>
      <title>Reset your password · Whitecoat</title>
      <ForgotPasswordForm />
    </>
  )
}

export function ResetPasswordRoute() {
  const [params] = useSearchParams()
  return (
    <>
      <title>Choose a new password · Whitecoat</title>
      <ResetPasswordForm token={params.get('token')} />
    </>
  )
}

export function VerifyEmailRoute() {
  const [params] = useSearchParams()
  return (
    <>
      <title>Verify your email · Whitecoat</title>
      <VerifyEmailConfirm token={params.get('token')} />
    </>
  )
}
