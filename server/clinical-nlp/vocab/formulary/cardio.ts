/** Blood pressure, heart failure, angina, rhythm, antiplatelets, anticoagulants and lipids. Row format: ../formulary.ts. */
export const CARDIO = `
amlodipine|||tablet|2.5,5,10|amlong,amlokind,stamlo,amlopres,amlodac,norvasc,katerzia
s amlodipine||levamlodipine,s-amlodipine|tablet|1.25,2.5,5|asomex
lercanidipine|||tablet|10,20|zanidip
telmisartan|||tablet|20,40,80|telma,telmikind,telsartan,micardis
telmisartan + amlodipine|||tablet||telma am,telmikind am,twynsta
telmisartan + hydrochlorothiazide|||tablet||telma h,telmikind h,micardis hct
telmisartan + chlorthalidone|||tablet||telma ct
telmisartan + amlodipine + hydrochlorothiazide|||tablet||telma amh
telmisartan + metoprolol succinate|||tablet||telma beta
cilnidipine + telmisartan|||tablet||cilacar t
losartan|||tablet|25,50,100|losar,losacar,repace,cozaar
losartan + hydrochlorothiazide|||tablet||losar h,repace h,losacar h,hyzaar
losartan + amlodipine|||tablet||
olmesartan|||tablet|10,20,40|olmezest,benicar
olmesartan + hydrochlorothiazide|||tablet||olmezest h,benicar hct
olmesartan + amlodipine|||tablet||azor
valsartan|||tablet|40,80,160,320|valzaar,~valent,diovan
valsartan + hydrochlorothiazide|||tablet||diovan hct
amlodipine + valsartan|||tablet||exforge
irbesartan|||tablet|75,150,300|irovel,avapro
candesartan|||tablet|4,8,16,32|candesar,atacand
azilsartan|||tablet|40,80|edarbi
cilnidipine|||tablet|5,10,20|cilacar,cinod
nifedipine|||tablet,capsule|5,10,20,30,60,90|depin,nicardia,calcigard,procardia,adalat,adalat cc
felodipine|||tablet|2.5,5,10|plendil
diltiazem|||tablet,capsule,gel|30,60,90,120,180,240,2%|dilzem,cardizem,cardizem cd
verapamil|||tablet|40,80,120,240|calaptin,isoptin
enalapril|||tablet|2.5,5,10,20|envas,enam,vasotec
ramipril|||tablet,capsule|1.25,2.5,5,10|cardace,ramace,ramistar,altace
lisinopril|||tablet|2.5,5,10,20,40|listril,lipril,zestril,prinivil
lisinopril + hydrochlorothiazide|||tablet||zestoretic
perindopril|||tablet|2,4,8|coversyl,aceon
quinapril|||tablet|5,10,20,40|accupril
benazepril|||tablet|5,10,20,40|lotensin
amlodipine + benazepril|||capsule||lotrel
captopril|||tablet|12.5,25,50|aceten,capoten
atenolol|||tablet|25,50,100|aten,tenormin,betacard
atenolol + amlodipine|||tablet||amlopres at,amlokind at,stamlo beta
metoprolol|||tablet|12.5,25,50,100|
metoprolol succinate||metoprolol er,metoprolol xl,metoprolol extended release|tablet|12.5,25,50,100,200|met xl,metolar xr,starpress xl,toprol xl,seloken xl
metoprolol tartrate|||tablet|25,50,100|metolar,betaloc,lopressor
metoprolol succinate + amlodipine|||tablet||
bisoprolol|||tablet|1.25,2.5,5,10|concor,corbis,bisocard,zebeta
bisoprolol + hydrochlorothiazide|||tablet||ziac
nebivolol|||tablet|2.5,5,10|nebicard,nebistar,nebilong,bystolic
carvedilol|||tablet|3.125,6.25,12.5,25|cardivas,carloc,coreg
propranolol|||tablet,capsule|10,20,40,80|ciplar,ciplar la,inderal,inderal la
labetalol|||tablet,injection|100,200|labebet,lobet,trandate
hydrochlorothiazide|||tablet|12.5,25|aquazide,hctz,microzide
chlorthalidone|||tablet|6.25,12.5,25|thalizide,ctd,hygroton,thalitone
indapamide|||tablet|1.5,2.5|natrilix,natrilix sr,lozol
furosemide||frusemide|tablet,injection|20,40,80,10mg/ml|lasix,frusenex
furosemide + spironolactone|||tablet||lasilactone
torsemide|||tablet,injection|5,10,20,100|dytor,~tide,demadex
torsemide + spironolactone|||tablet||dytor plus
bumetanide|||tablet|0.5,1|bumex
metolazone|||tablet|2.5,5|zaroxolyn
spironolactone|||tablet|25,50,100|aldactone,spiractin,carospir
eplerenone|||tablet|25,50|eptus,inspra
finerenone|||tablet|10,20|kerendia
triamterene + hydrochlorothiazide|||tablet,capsule||maxzide,dyazide
amiloride|||tablet|5|
acetazolamide|||tablet|250|diamox
prazosin|||tablet|1,2.5,5|minipress,minipress xl,prazopress
doxazosin|||tablet|1,2,4,8|doxacard,cardura
terazosin|||tablet|1,2,5|hytrin
clonidine|||tablet,patch|0.1,0.15,0.2|arkamin,catapres
methyldopa|||tablet|250,500|aldomet,alphadopa
hydralazine|||tablet|10,25,50|
aspirin||acetylsalicylic acid,asa|tablet|75,81,150,325|ecosprin,disprin,loprin,bayer aspirin,ecotrin
aspirin + atorvastatin|||capsule||ecosprin av
aspirin + atorvastatin + clopidogrel|||capsule||ecosprin gold
clopidogrel|||tablet|75|clopilet,deplatt,clopitab,plavix
aspirin + clopidogrel|||tablet,capsule||clopitab a,deplatt a,clopilet a
ticagrelor|||tablet|60,90|brilinta,axcer
prasugrel|||tablet|5,10|prasita,effient
cilostazol|||tablet|50,100|pletoz,pletal
dipyridamole|||tablet|25,75,100|persantine
rivaroxaban|||tablet|2.5,10,15,20|xarelto
apixaban|||tablet|2.5,5|eliquis,apigat
dabigatran|||capsule|75,110,150|pradaxa
edoxaban|||tablet|15,30,60|lixiana,savaysa
warfarin|||tablet|1,2,3,5|warf,uniwarfin,coumadin,jantoven
acenocoumarol|||tablet|1,2,4|acitrom,sintrom
enoxaparin|||injection|40,60,80|clexane,lovenox
heparin|||injection,gel|5000IU|thrombophob
atorvastatin|||tablet|10,20,40,80|atorva,storvas,lipicure,tonact,lipitor,aztor
rosuvastatin|||tablet|5,10,20,40|rosuvas,rozavel,rozat,rosulip,crestor
simvastatin|||tablet|5,10,20,40|zocor
pravastatin|||tablet|10,20,40,80|pravachol
pitavastatin|||tablet|1,2,4|livalo
lovastatin|||tablet|10,20,40|mevacor
fenofibrate|||tablet|48,145,160,200|lipicard,tricor,fenoglide
gemfibrozil|||tablet,capsule|300,600|lopid
ezetimibe|||tablet|10|ezedoc,zetia
ezetimibe + simvastatin|||tablet||vytorin
rosuvastatin + ezetimibe|||tablet||
rosuvastatin + fenofibrate|||tablet||
atorvastatin + fenofibrate|||tablet||
omega 3 fatty acids||fish oil,omega 3,omega 3 acid ethyl esters|capsule|1000|maxepa,omacor,lovaza
icosapent ethyl|||capsule|1000|vascepa
evolocumab|||injection|140|repatha
isosorbide dinitrate|||tablet,sublingual tablet|5,10,20|sorbitrate,isordil
isosorbide mononitrate|||tablet|10,20,30,60|monotrate,imdur
nitroglycerin||glyceryl trinitrate,gtn|tablet,sublingual tablet,spray,patch|0.4,2.6,6.4|nitrocontin,angispan,nitrostat
nicorandil|||tablet|5,10|nikoran
ranolazine|||tablet|500,1000|ranolaz,ranexa
trimetazidine|||tablet|35|flavedon
ivabradine|||tablet|5,7.5|ivabrad,coralan,corlanor
digoxin|||tablet|0.0625,0.125,0.25|lanoxin
amiodarone|||tablet|100,200|cordarone,tachyra,pacerone
flecainide|||tablet|50,100|tambocor
propafenone|||tablet|150,300|rythmol
dronedarone|||tablet|400|multaq
sotalol|||tablet|40,80|betapace
sacubitril + valsartan|||tablet|50,100,200|vymada,azmarda,entresto
triamterene|||capsule|50,100|dyrenium
sacubitril|||tablet||
`;
