import { createUserWithCli, enrolAdminInUi, expect, grantPassWithCli, PASSWORD, test, uniqueEmail } from './fixtures'

// Issue 30 item 7: the admin pages fit their window.

test('at 1280 px the users table shows every column, the Data column clear of the edge', async ({ page }) => {
  // A paying user: the row with the most in it (a pass's end, its payments).
  const paying = uniqueEmail('maximiliana.konstantinopoulou.featherstonehaugh')
  await createUserWithCli({ email: paying, name: 'Maximiliana Alexandra Konstantinopoulou', password: PASSWORD })
  await grantPassWithCli(paying)
  const email = uniqueEmail('tableadmin')
  await page.setViewportSize({ width: 1280, height: 900 })
  await createUserWithCli({ email, name: 'Tabitha Admin', password: PASSWORD, admin: true })
  await enrolAdminInUi(page, email, PASSWORD)
  const region = page.getByRole('region', { name: 'Users table' })
  await expect(region.getByText('Maximiliana Alexandra Konstantinopoulou')).toBeVisible()
  const { scrollWidth, clientWidth } = await region.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }))
  expect(scrollWidth, 'the table scrolls sideways at 1280 px').toBeLessThanOrEqual(clientWidth)
  const box = (await region.boundingBox())!
  const deletes = region.getByRole('button', { name: /^Delete .* account$/ })
  for (const button of await deletes.all()) {
    const b = (await button.boundingBox())!
    expect(b.x + b.width, 'the Data column presses the right edge').toBeLessThanOrEqual(box.x + box.width - 8)
  }
  await page.screenshot({ path: test.info().outputPath('admin-users-1280.png'), fullPage: true })
})

test('in a 900 px window the edit dialog keeps its close button inside its top edge, scrolled or not', async ({ page }) => {
  const email = uniqueEmail('dialogadmin')
  await createUserWithCli({ email, name: 'Dana Dialog', password: PASSWORD, admin: true })
  await enrolAdminInUi(page, email, PASSWORD)
  await page.setViewportSize({ width: 900, height: 600 })
  await page.goto('/dental/admin/questions')
  const questions = page.getByRole('table', { name: /^Questions/ })
  await questions.getByRole('button', { name: /^View/ }).first().click()
  await page.getByRole('dialog', { name: 'Question', exact: true }).getByRole('button', { name: 'Edit' }).click()
  const dialog = page.getByRole('dialog', { name: 'Edit question' })
  const close = dialog.getByRole('button', { name: 'Close' })
  for (const scrolled of [false, true]) {
    if (scrolled) {
      await dialog.evaluate((el) => {
        for (const e of [el, ...Array.from(el.querySelectorAll('*'))]) e.scrollTop = e.scrollHeight
      })
    }
    const d = (await dialog.boundingBox())!
    const c = (await close.boundingBox())!
    expect(c.y, `close button below the top edge (scrolled: ${scrolled})`).toBeGreaterThanOrEqual(d.y + 4)
    expect(c.x + c.width).toBeLessThanOrEqual(d.x + d.width - 4)
    // Nothing is drawn over it: the point at its centre is the button.
    const onTop = await close.evaluate((el) => {
      const r = el.getBoundingClientRect()
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)
      return !!hit && el.contains(hit)
    })
    expect(onTop, `close button covered (scrolled: ${scrolled})`).toBe(true)
    await page.screenshot({ path: test.info().outputPath(`admin-edit-900-${scrolled ? 'scrolled' : 'top'}.png`) })
  }
})

test("an admin's enrolment shows the otpauth link as a QR code beside the key", async ({ page }) => {
  const email = uniqueEmail('qradmin')
  await createUserWithCli({ email, name: 'Quentin QR', password: PASSWORD, admin: true })
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page.getByRole('heading', { name: 'Set up your second factor' })).toBeVisible()
  const qr = page.getByRole('img', { name: 'QR code to scan with your authenticator app' })
  await expect(qr).toBeVisible()
  const box = (await qr.boundingBox())!
  expect(box.width).toBeGreaterThanOrEqual(160)
  // Drawn here, from the page's own code: no request leaves for an image.
  expect(await qr.evaluate((el) => el.tagName.toLowerCase())).toBe('svg')
  await page.screenshot({ path: test.info().outputPath('enrol-qr-1280.png'), fullPage: true })
})
