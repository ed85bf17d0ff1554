/**
 * The project last opened in each organization, kept in a cookie of this browser so that the organization's pages
 * stay in it. The server reads it to render the switcher with that project from the first paint; the browser writes
 * it when a project's page opens. (In localStorage it cost every page a synchronous load of the storage area while
 * hydrating, and the switcher showed the first project until then.) Only a choice among the projects the caller
 * may see: an id that is not among them is ignored.
 */
export const chosenProjectCookie = (orgId: string) => `svc_project_${orgId}`;

/** Remembers `projectId` as the organization's chosen project in this browser, for a year. */
export function rememberChosenProject(orgId: string, projectId: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${chosenProjectCookie(orgId)}=${encodeURIComponent(projectId)}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}
