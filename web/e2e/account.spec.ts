import { readFile } from 'node:fs/promises'
import { expectAxeClean, expectToastsAxeClean } from './axe'
import { createUserWithCli, expect, logInInUi, PASSWORD, test, uniqueEmail, waitForMail } from './fixtures'

// Toasts slide in and fade out here as for most students: these specs check them at rest.
test.use({ reducedMotion: 'no-preference' })

test.use({ viewport: { width: 375, height: 812 } })

test('a student downloads their data, then deletes the account and can no longer log in', async ({ page }) => {
  const email = uniqueEmail('rights')
  await createUserWithCli({ email, name: 'Dana Data', password: PASSWORD })
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  const card = page.getByText('Your data', { exact: true })
  await expect(card).toBeVisible()

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data (JSON)' }).click()])
  const data = JSON.parse(await readFile(await download.path(), 'utf8'))
  expect(data.account.email).toBe(email)
  expect(data.sessions).toEqual([])

  await page.getByRole('button', { name: 'Delete my account' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' })
  await expect(dialog.getByLabel('Password')).toBeFocused()
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('delete-dialog-375.png') })

  await dialog.getByLabel('Password').fill('not my password')
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('That password is not right.')
  await dialog.getByLabel('Password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page.getByText('Your account has been deleted.')).toBeVisible()
  await waitForMail(email, /Your Whitecoat account has been deleted/)

  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByText('Invalid email or password.')).toBeVisible()
})

test('the history page works at 375 px and passes axe', async ({ page }) => {
  const email = uniqueEmail('history')
  await createUserWithCli({ email, name: 'Hana History', password: PASSWORD })
  await page.goto('/login')
  await logInInUi(page, email, PASSWORD)
  await expect(page.getByText('Logged in as Hana History.')).toBeVisible()
  await expectToastsAxeClean(page)
  await expect(page.getByText('Your data', { exact: true })).toBeVisible()
  await page.goto('/dental/history')
  await expect(page.getByRole('heading', { name: 'Session history', level: 1 })).toBeVisible()
  await expect(page.getByText('No saved sessions match.')).toBeVisible()
  await page.getByLabel('Question contains').fill('ethics')
  await page.getByRole('button', { name: 'Show sessions' }).click()
  await expect(page.getByText('0 sessions · Page 1 of 1')).toBeVisible()
  await expectAxeClean(page)
  await page.screenshot({ path: test.info().outputPath('history-375.png'), fullPage: true })
})
