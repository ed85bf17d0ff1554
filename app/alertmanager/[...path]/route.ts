import { alertmanagerRequest } from '@/lib/alertmanager/router';

// One file for the family: lib/alertmanager/router.ts dispatches by its operations' paths.
export const GET = alertmanagerRequest;
export const POST = alertmanagerRequest;
export const PUT = alertmanagerRequest;
export const PATCH = alertmanagerRequest;
export const DELETE = alertmanagerRequest;
