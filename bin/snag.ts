#!/usr/bin/env node
/** CDK entry point (cdk.json "app"). Stage and options come from context: `npx cdk synth -c stage=prod`. */
import { buildApp } from '../lib/app';

buildApp().app.synth();
