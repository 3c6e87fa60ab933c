import { act, render, screen } from '@testing-library/react'
import { toast } from '@/lib/toast'
import { expect, it } from 'vitest'
import { AppProvider } from './provider'

it('shows toasts top-right below the sticky header, clear of its links', async () => {
  render(<AppProvider>{null}</AppProvider>)
  // No toast yet, so no toaster: its code is not even loaded.
  expect(document.querySelector('[data-sonner-toaster]')).toBeNull()
  act(() => void toast.success('You are logged out.'))
  expect(await screen.findByText('You are logged out.')).toBeInTheDocument()
  const toaster = document.querySelector('[data-sonner-toaster]')
  expect(toaster).toHaveAttribute('data-y-position', 'top')
  expect(toaster).toHaveAttribute('data-x-position', 'right')
  expect((toaster as HTMLElement).style.getPropertyValue('--offset-top')).toBe('calc(4rem + 12px)')
  expect((toaster as HTMLElement).style.getPropertyValue('--mobile-offset-top')).toBe('calc(4rem + 12px)')
})
