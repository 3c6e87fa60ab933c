import { act, render, screen } from '@testing-library/react'
import { toast } from 'sonner'
import { expect, it } from 'vitest'
import { AppProvider } from './provider'

it('shows toasts at the bottom, clear of the header links', async () => {
  render(<AppProvider>{null}</AppProvider>)
  act(() => void toast.success('You are logged out.'))
  expect(await screen.findByText('You are logged out.')).toBeInTheDocument()
  const toaster = document.querySelector('[data-sonner-toaster]')
  expect(toaster).toHaveAttribute('data-y-position', 'bottom')
})
