import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { dashboardBody, json, mockApi, problem, professionsBody, user } from '@/test/api-mock'
import { renderApp } from '@/test/render'

const kept = 'The account and everything in it have been deleted. Your payment records are kept.'

describe('your data', () => {
  it('offers both downloads and deletes the account only with the right password', async () => {
    const passwords: string[] = []
    mockApi({
      'GET /api/auth/me': () => json(200, { user: user() }),
      'GET /api/professions': () => json(200, professionsBody),
      'GET /api/dashboard': () => json(200, dashboardBody()),
      'POST /api/account/delete': async (req) => {
        const { password } = (await req.json()) as { password: string }
        passwords.push(password)
        return password === 'right one' ? json(200, { message: kept }) : problem(400, 'That password is not right.')
      },
    })
    renderApp('/dental/dashboard')
    expect(await screen.findByRole('link', { name: 'Download my data (JSON)' }, { timeout: 5000 })).toHaveAttribute('href', '/api/account/export')
    expect(screen.getByRole('link', { name: 'Download my sessions (CSV)' })).toHaveAttribute('href', '/api/account/export.csv')

    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' })
    const password = within(dialog).getByLabelText('Password')
    expect(password).toHaveFocus()
    await userEvent.type(password, 'wrong')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('That password is not right.')

    await userEvent.clear(password)
    await userEvent.type(password, 'right one{Enter}')
    expect(await screen.findByText('Your account has been deleted.')).toBeInTheDocument()
    expect(screen.getByText(kept)).toBeInTheDocument()
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(passwords).toEqual(['wrong', 'right one'])
  })
})
