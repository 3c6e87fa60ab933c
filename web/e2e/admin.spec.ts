import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUserWithCli, enrolAdminInUi, expect, PASSWORD, questionsCli, test, uniqueEmail } from './fixtures'

test('an admin searches and sorts users, then adds, edits and deletes a question', async ({ page }, testInfo) => {
  test.setTimeout(90_000)
  const email = uniqueEmail('qadmin')
  await createUserWithCli({ email, name: 'Quinn Admin', password: PASSWORD, admin: true })
  await enrolAdminInUi(page, email, PASSWORD)

  // Users: server-side search, and sorting by a header button with aria-sort.
  const users = page.getByRole('table', { name: /^Users/ })
  await page.getByLabel('Search users').fill(email)
  await expect(users.getByRole('row')).toHaveCount(2)
  await expect(users.getByRole('row').nth(1)).toContainText('Quinn Admin')
  await expect(users.getByRole('row').nth(1)).toContainText('admin')
  const nameHeader = users.getByRole('columnheader', { name: 'Name' })
  await expect(nameHeader).toHaveAttribute('aria-sort', 'none')
  await nameHeader.getByRole('button').click()
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending')
  await nameHeader.getByRole('button').press('Enter')
  await expect(nameHeader).toHaveAttribute('aria-sort', 'descending')

  await page.getByRole('link', { name: 'Manage questions' }).click()
  await expect(page).toHaveURL(/\/dental\/admin\/questions$/)
  await expect(page.getByRole('heading', { name: 'Question manager' })).toBeVisible()

  // Add: the spec's message for an incomplete question, then a real one.
  const tag = randomUUID().slice(0, 8)
  const text = `How would you respond to a colleague cutting corners (${tag})?`
  await page.getByRole('button', { name: 'New question' }).click()
  const add = page.getByRole('dialog', { name: 'New question' })
  await add.getByRole('button', { name: 'Add question' }).click()
  await expect(add.getByRole('alert')).toHaveText('Please complete all fields.')
  await add.getByLabel('Question', { exact: true }).fill(text)
  await add.getByRole('checkbox', { name: 'Pharmacy' }).check()
  await add.getByLabel('Subtag (optional)').selectOption('Ethical')
  await add.getByLabel('Tip (optional)').fill('Name the principle at stake.')
  await add.getByRole('button', { name: 'Add question' }).click()
  await expect(page.getByText('Question added.')).toBeVisible()
  await expect(add).toBeHidden()

  // Filters: profession, subtag and text narrow the list to the new question.
  await page.getByLabel('Profession', { exact: true }).selectOption('pharmacy')
  await page.getByLabel('Subtag', { exact: true }).selectOption('Ethical')
  await page.getByLabel('Search questions').fill(tag)
  const questions = page.getByRole('table', { name: /^Questions/ })
  await expect(questions.getByRole('row')).toHaveCount(2)
  await expect(questions.getByRole('row').nth(1)).toContainText(text)

  // View -> Edit -> Save, with the spec's message for an empty text first.
  await questions.getByRole('button', { name: /^View/ }).click()
  const view = page.getByRole('dialog', { name: 'Question', exact: true })
  await expect(view.getByText('Name the principle at stake.')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('admin-question-view-1280.png') })
  // Escape closes it and focus returns to the View button that opened it.
  await page.keyboard.press('Escape')
  await expect(questions.getByRole('button', { name: /^View/ })).toBeFocused()
  await questions.getByRole('button', { name: /^View/ }).press('Enter')
  await view.getByRole('button', { name: 'Edit' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit question' })
  await edit.getByLabel('Question', { exact: true }).fill('')
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(edit.getByRole('alert')).toHaveText('All fields required')
  const edited = `${text} Edited`
  await edit.getByLabel('Question', { exact: true }).fill(edited)
  await edit.getByLabel('Subtag (optional)').selectOption('Teamwork')
  // Its points and trap (issue 40): added row by row, one removed again.
  const points = edit.getByRole('group', { name: 'Points a strong answer makes' })
  for (const [i, [point, cues]] of [
    ['Say what the colleague skipped and why it matters to patients.', 'skipped; matters to patients'],
    ['This one is removed.', ''],
    ['Say you would speak to them privately first.', 'privately; speak to them first; one on one'],
  ].entries()) {
    await points.getByRole('button', { name: 'Add a point' }).click()
    await points.getByLabel(`Point ${i + 1}`, { exact: true }).fill(point)
    await points.getByLabel(`Point ${i + 1}: phrases that show it, separated by semicolons`).fill(cues)
  }
  await points.getByRole('button', { name: 'Remove point 2' }).click()
  await expect(points.getByLabel('Point 2', { exact: true })).toHaveValue('Say you would speak to them privately first.')
  const traps = edit.getByRole('group', { name: 'Traps to avoid' })
  await traps.getByRole('button', { name: 'Add a trap' }).click()
  await traps.getByLabel('Trap 1', { exact: true }).fill('Reporting them to the manager before a word with them')
  await traps.getByLabel('Trap 1: phrases that show it, separated by semicolons').fill('report them straight away')
  await page.screenshot({ path: testInfo.outputPath('admin-question-points-1280.png'), fullPage: true })
  await edit.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Question updated.')).toBeVisible()
  await expect(view.getByText(edited)).toBeVisible()
  await expect(view.getByText('Teamwork')).toBeVisible()
  await expect(view.getByRole('listitem')).toHaveText([
    'Say what the colleague skipped and why it matters to patients.Phrases: skipped; matters to patients',
    'Say you would speak to them privately first.Phrases: privately; speak to them first; one on one',
    'Reporting them to the manager before a word with themPhrases: report them straight away',
  ])
  // The export carries them; a point changed in the file comes back with the import.
  const dir = mkdtempSync(join(tmpdir(), 'whitecoat-questions-'))
  const file = join(dir, 'questions.json')
  await questionsCli(['export', '--format', 'json', '--out', file])
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { questions: { text: string; points?: { text: string; cues: string[] }[]; traps?: unknown[] }[] }
  const mine = doc.questions.find((q) => q.text === edited)!
  expect(mine.points).toEqual([
    { text: 'Say what the colleague skipped and why it matters to patients.', cues: ['skipped', 'matters to patients'] },
    { text: 'Say you would speak to them privately first.', cues: ['privately', 'speak to them first', 'one on one'] },
  ])
  expect(mine.traps).toHaveLength(1)
  mine.points![1]!.text = 'Say you would speak to them privately, and soon.'
  writeFileSync(file, JSON.stringify(doc))
  await questionsCli(['import', file])
  rmSync(dir, { recursive: true, force: true })
  await page.keyboard.press('Escape')
  await page.reload()
  // The first page of the bank, then the search (typed before the list is there, it could be lost).
  await expect(questions.getByRole('button', { name: /^View/ }).first()).toBeVisible()
  await page.getByLabel('Search questions').fill(tag)
  await expect(questions.getByRole('row')).toHaveCount(2)
  await questions.getByRole('button', { name: /^View/ }).click()
  await expect(view.getByRole('listitem').nth(1)).toHaveText('Say you would speak to them privately, and soon.Phrases: privately; speak to them first; one on one')

  // Edit -> Cancel keeps the saved question.
  await view.getByRole('button', { name: 'Edit' }).click()
  await edit.getByLabel('Question', { exact: true }).fill('discarded')
  await edit.getByRole('button', { name: 'Cancel' }).click()
  await expect(view.getByText(edited)).toBeVisible()

  // Delete asks first; Cancel keeps it, Delete removes it.
  await view.getByRole('button', { name: 'Delete' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete this question?' })
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toBeHidden()
  await view.getByRole('button', { name: 'Delete' }).click()
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Question deleted.')).toBeVisible()
  await expect(view).toBeHidden()
  await expect(questions.getByText('No questions match these filters.')).toBeVisible()
  // The View button is gone with its row: focus lands on the search box, not the page.
  await expect(page.getByLabel('Search questions')).toBeFocused()
  const left = await page.request.get(`/api/admin/questions?q=${tag}`)
  expect(((await left.json()) as { total: number }).total).toBe(0)

  // At 375 px the table scrolls inside its box; the page itself does not.
  await page.setViewportSize({ width: 375, height: 812 })
  await page.goto('/dental/admin')
  const region = page.getByRole('region', { name: 'Users table' })
  await expect(region.getByRole('row').nth(1)).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
  await page.screenshot({ path: testInfo.outputPath('admin-users-375.png'), fullPage: true })
  // So does the question manager's (its View buttons' screen-reader text once widened the page to 629 px).
  await page.getByRole('link', { name: 'Manage questions' }).click()
  await expect(page.getByRole('region', { name: 'Questions table' }).getByRole('button', { name: /^View/ }).first()).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375)
  await page.screenshot({ path: testInfo.outputPath('admin-questions-375.png'), fullPage: true })
})

test('a plain user gets 403 from every kind of admin call', async ({ page }) => {
  const email = uniqueEmail('plain')
  await createUserWithCli({ email, name: 'Pat Plain', password: PASSWORD })
  const login = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } })
  expect(login.status()).toBe(200)
  const calls = [
    page.request.get('/api/admin/users'),
    page.request.get('/api/admin/questions'),
    page.request.post('/api/admin/questions', { data: { text: 'Sneaky?', mainTags: ['dental'] } }),
    page.request.put('/api/admin/questions/any-id', { data: { text: 'Sneaky?', mainTags: ['dental'] } }),
    page.request.delete('/api/admin/questions/any-id'),
  ]
  for (const res of await Promise.all(calls)) expect(res.status(), res.url()).toBe(403)

  // In the browser, the same user is sent away from the admin pages.
  await page.goto('/dental/admin/questions')
  await expect(page).toHaveURL(/\/dental$/)
})
